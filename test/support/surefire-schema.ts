import { expect } from '@jest/globals';
import fs from 'fs-extra';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';

const XSD = fileURLToPath(new URL('../fixtures/schemas/surefire-test-report.xsd', import.meta.url));

/** Replaces `from` in the schema, which must hold it exactly once (the derivation fails
 * loudly if the schema changes under it). */
function once(xsd: string, from: string, to: string): string {
  expect(xsd.split(from)).toHaveLength(2);
  return xsd.replace(from, to);
}

/** Maven Surefire's report schema (test/fixtures/schemas/README.md), with only what
 * run-tests writes on purpose beyond it: Surefire writes one <testsuite> per file, run-tests
 * one <testsuites> root around them (its attributes as Jenkins' schema has them); `file`
 * and `line` on <testcase> and `file` on <testsuite> (read by GitLab and the Jenkins
 * JUnit plugin). Everything else (rerun and flaky elements, their required <stackTrace>,
 * the required `time`, the children's order) is Surefire's own. */
export function surefireSchema(): string {
  let xsd = fs.readFileSync(XSD, 'utf8');
  xsd = once(xsd, '<xs:attribute name="timestamp" type="xs:dateTime"/>\n          </xs:complexType>',
    '<xs:attribute name="timestamp" type="xs:dateTime"/>\n            <xs:attribute name="file" type="xs:string"/>\n            <xs:attribute name="line" type="xs:string"/>\n          </xs:complexType>');
  xsd = once(xsd, '<xs:attribute name="flakes" type="xs:string"/>', '<xs:attribute name="flakes" type="xs:string"/>\n      <xs:attribute name="file" type="xs:string"/>');
  return once(xsd, '</xs:schema>', `  <xs:element name="testsuites">
    <xs:complexType>
      <xs:sequence>
        <xs:element ref="testsuite" minOccurs="0" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:attribute name="name" type="xs:string"/>
      <xs:attribute name="tests" type="xs:string"/>
      <xs:attribute name="failures" type="xs:string"/>
      <xs:attribute name="errors" type="xs:string"/>
      <xs:attribute name="time" type="xs:string"/>
    </xs:complexType>
  </xs:element>
</xs:schema>`);
}

/** libxml2's own validator's complaints about `xml` against surefireSchema(); also that
 * the root is <testsuites>, since the schema allows a bare <testsuite> too. */
export async function surefireErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: { fileName: 'run.xml', contents: xml }, schema: { fileName: path.basename(XSD), contents: surefireSchema() } });
  const root = /<\?xml[^>]*>\s*<([\w-]+)/.exec(xml)?.[1];
  return [...result.errors.map((e) => e.rawMessage), ...(root === 'testsuites' ? [] : [`the root is <${root ?? '?'}>, not <testsuites>`])];
}
