import { describe, expect, it } from '@jest/globals';
import { escapeHtml } from '../../../../src/render/report-page/escape.js';

describe('escapeHtml', () => {
  it('makes markup text: every character that ends text or a quoted attribute is an entity', () => {
    expect(escapeHtml('<script>alert(1)</script>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(escapeHtml(`a" onload="x' & b`)).toBe('a&quot; onload=&quot;x&#39; &amp; b');
    // An entity in a name stays what the name says, not the character it would name.
    expect(escapeHtml('&lt;')).toBe('&amp;lt;');
  });

  it('shows control characters as escapes and keeps newlines and tabs as layout', () => {
    expect(escapeHtml('\u001b[31mred\u001b[39m\u0000')).toBe('\\x1b[31mred\\x1b[39m\\x00');
    expect(escapeHtml('one\r\n\ttwo\u009b')).toBe('one\n\ttwo\\u009b');
  });

  it('leaves other text alone, non-ASCII included', () => {
    expect(escapeHtml('cart › adds 2 items — ü')).toBe('cart › adds 2 items — ü');
  });
});
