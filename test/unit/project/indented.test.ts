import { describe, expect, it } from '@jest/globals';
import { pythonDefinitionAt } from '../../../src/runners/pytest/at-line.js';
import { minitestTestsAt } from '../../../src/runners/minitest/at-line.js';

const PYTHON = `import pytest


class TestGroup:
    """A docstring."""

    @pytest.mark.parametrize("n", [1, 2])
    def test_one(self, n):
        def helper():
            return n
        assert helper() == n

    async def test_two(self):
        pass


def test_top():
    pass
`;

describe('pythonDefinitionAt', () => {
  it("names the function at a line, inside its classes; a decorator is its function's; a nested function its test's", () => {
    expect(pythonDefinitionAt(PYTHON, 8)).toEqual(['TestGroup', 'test_one']);
    expect(pythonDefinitionAt(PYTHON, 7)).toEqual(['TestGroup', 'test_one']);
    expect(pythonDefinitionAt(PYTHON, 10)).toEqual(['TestGroup', 'test_one']);
    expect(pythonDefinitionAt(PYTHON, 14)).toEqual(['TestGroup', 'test_two']);
    expect(pythonDefinitionAt(PYTHON, 5)).toEqual(['TestGroup']);
    expect(pythonDefinitionAt(PYTHON, 18)).toEqual(['test_top']);
    expect(pythonDefinitionAt(PYTHON, 1)).toBeNull();
    expect(pythonDefinitionAt(PYTHON, 99)).toBeNull();
  });
});

const RUBY = `require "test_helper"

module Shop
  class CartTest < ActiveSupport::TestCase
    test "adds an item" do
      assert true
    end

    def test_empty
      assert true
    end

    def helper
    end
  end
end
`;

describe('minitestTestsAt', () => {
  const at = (line: number) => minitestTestsAt('test/cart_test.rb', line, RUBY).map((t) => [t.id, t.line]);

  it('names the method at a line (its end included) by its full class name; a class line is all its tests', () => {
    expect(at(6)).toEqual([['Shop::CartTest#test_adds_an_item', 5]]);
    expect(at(7)).toEqual([['Shop::CartTest#test_adds_an_item', 5]]);
    expect(at(9)).toEqual([['Shop::CartTest#test_empty', 9]]);
    expect(at(4)).toEqual([['Shop::CartTest#test_adds_an_item', 5], ['Shop::CartTest#test_empty', 9]]);
  });

  it('refuses a line outside a class and a method that is no test', () => {
    expect(() => at(1)).toThrow('no test class or method is defined at test/cart_test.rb:1');
    expect(() => at(13)).toThrow('no test method is defined at test/cart_test.rb:13');
  });
});
