# frozen_string_literal: true

# What each Ruby file of a project loads and names, read with Ruby's own parser (Ripper),
# and the names an ERB view's code uses (Ripper's tokens of its <% %> fragments),
# for `run-tests plan`: nothing of the project is loaded or run. Comments are not in
# Ripper's tree, and a string counts only as a word when it is one (`"User"`), so text
# that merely mentions a name is no reference.
#
# ruby source_facts.rb IN OUT: IN is {"root": dir, "files": [relative paths]}; OUT gets
# {"files": {path: facts}}, facts being
#   loads:     [{kind, path, abs, line}] require/require_relative/load/autoload whose path is
#              a literal, or built from literals and __dir__, __FILE__, Rails.root (abs: true);
#              parts: [text, nil, ...] for a literal start and computed rest ("x/#{name}")
#   globs:     [{pattern, abs, line}] Dir[...] / Dir.glob(...) whose files a block requires
#   dynamic:   [{line, what}] a load whose path cannot be told
#   computed:  [{line, what}] constantize / const_get of a computed name (autoloading loads it)
#   consts:    constant names; words: identifiers, symbols, labels, instance variables and
#              one-word strings; superclasses: the last name of each `class X < Y`'s Y
#   error:     why the file could not be read, or null
require "json"
require "ripper"
require_relative "source_paths"

module RunTestsSourceFacts
  LOADS = %w[require require_relative load require_dependency autoload].freeze
  WORD = /\A[A-Za-z_]\w*[?!]?\z/
  CONST_PATH = /\A[A-Z]\w*(?:::[A-Z]\w*)+\z/

  class FileFacts
    include RunTestsSourcePaths

    def initialize(root, file, source)
      @root = root
      @file = file
      @dir = File.dirname(file)
      @lines = source.lines
      @loads = []
      @globs = []
      @dynamic = []
      @computed = []
      @consts = {}
      @words = {}
      @superclasses = []
      @defined = {}
      @glob_stack = []
    end

    def read(tree)
      collect_defs(tree)
      walk(tree)
      {
        loads: @loads, globs: @globs, dynamic: @dynamic, computed: @computed,
        consts: @consts.keys, words: @words.keys, superclasses: @superclasses.uniq, error: nil,
      }
    end

    private

    def collect_defs(node)
      return unless node.is_a?(Array)

      @defined[node[1][1]] = true if node[0] == :def && node[1].is_a?(Array)
      @defined[node[3][1]] = true if node[0] == :defs && node[3].is_a?(Array)
      node.each { |child| collect_defs(child) }
    end

    def walk(node)
      return unless node.is_a?(Array)

      if node[0].is_a?(Symbol)
        visit(node)
        return if node[0] == :method_add_block && walk_glob_block(node)
      end
      node.each { |child| walk(child) }
    end

    def visit(node)
      case node[0]
      when :@const then @consts[node[1]] = true
      when :@ident then @words[node[1]] = true
      when :@ivar, :@cvar then @words[node[1].delete("@")] = true
      when :@label then @words[node[1].chomp(":")] = true
      when :@tstring_content then string_words(node[1])
      when :class then superclass(node[2])
      when :command, :method_add_arg, :command_call then call(node)
      when :call then computed_constant(node)
      end
    end

    def string_words(text)
      RunTestsSourceFacts.string_words(text, @consts, @words)
    end

    def superclass(node)
      name = last_const(node)
      @superclasses << name if name
    end

    def last_const(node)
      return nil unless node.is_a?(Array)
      return node[1] if node[0] == :@const

      node.reverse_each do |child|
        found = last_const(child)
        return found if found
      end
      nil
    end

    # A call of require & co, without a receiver or on Kernel; `YAML.load` is no load,
    # nor is a `load` the file defines itself.
    def call(node)
      pass = node[0] == :method_add_arg ? block_pass(node) : nil
      return glob_pass(node, pass) if pass && LOADS.include?(symbol_arg(pass))

      name, args = call_parts(node)
      if name == "const_get"
        first = args&.first
        computed(node) unless first && (literal(first) || symbol?(first))
        return
      end
      return unless LOADS.include?(name) && !@defined[name]

      load_call(node, name, args)
    end

    # [name, argument nodes] of a call node, nil name for a receiver we do not take.
    def call_parts(node)
      case node[0]
      when :command
        [node[1][1], args_of(node[2])]
      when :command_call
        kernel?(node[1]) || %w[const_get].include?(node[3]&.[](1)) ? [node[3]&.[](1), args_of(node[4])] : [nil, nil]
      when :method_add_arg
        target = node[1]
        name = if target[0] == :fcall then target[1][1]
               elsif target[0] == :call && (kernel?(target[1]) || target[3]&.[](1) == "const_get") then target[3][1]
               end
        paren = node[2]
        [name, paren.is_a?(Array) && paren[0] == :arg_paren ? args_of(paren[1]) : args_of(paren)]
      else
        [nil, nil]
      end
    end

    def kernel?(node)
      node.is_a?(Array) && node[0] == :var_ref && node[1][0] == :@const && node[1][1] == "Kernel"
    end

    def block_pass(node)
      paren = node[0] == :method_add_arg ? node[2] : nil
      paren = paren[1] if paren.is_a?(Array) && paren[0] == :arg_paren
      paren.is_a?(Array) && paren[0] == :args_add_block && paren[2] ? paren[2] : nil
    end

    def load_call(node, name, args)
      line = line_of(node)
      if args.nil? || args.empty?
        return if args&.empty? # `load` with no argument is some other method
        return dynamic(node)
      end

      if name == "autoload"
        return @loads << { kind: "autoload_const", path: const_name(args[0]), abs: false, line: line } if args.length == 1 && const_name(args[0])

        args = args[1..]
      end
      path = value(args[0])
      pattern = path.nil? && path_pattern(args[0])
      return @loads << { kind: name, path: pattern[:parts].first, abs: pattern[:abs], parts: pattern[:parts], line: line } if pattern

      if path.nil?
        glob = @glob_stack.last
        param = var_name(args[0])
        return @globs << { pattern: glob[:pattern], abs: glob[:abs], line: line } if glob && glob[:params].include?(param) && glob[:pattern]

        return dynamic(node)
      end
      @loads << { kind: name, path: path[1], abs: path[0] == :abs, line: line }
    end

    def computed_constant(node)
      name = node[3].is_a?(Array) ? node[3][1] : nil
      return unless %w[constantize safe_constantize].include?(name)

      computed(node) unless literal(node[1])
    end

    def literal(node)
      node.is_a?(Array) && node[0] == :string_literal && string_value(node[1])&.first == :lit
    end

    def symbol?(node)
      node.is_a?(Array) && node[0] == :symbol_literal && node[1].is_a?(Array) && node[1][0] == :symbol
    end

    def const_name(node)
      symbol?(node) && node[1][1][0] == :@const ? node[1][1][1] : nil
    end

    def var_name(node)
      node.is_a?(Array) && node[0] == :var_ref && node[1][0] == :@ident ? node[1][1] : nil
    end

    def line_of(node)
      return node[2][0] if node[0].is_a?(Symbol) && node[0].to_s.start_with?("@")

      node.each do |child|
        next unless child.is_a?(Array)

        found = line_of(child)
        return found if found
      end
      nil
    end

    def dynamic(node)
      @dynamic << { line: line_of(node), what: text_at(line_of(node)) }
    end

    def computed(node)
      @computed << { line: line_of(node), what: text_at(line_of(node)) }
    end

    def text_at(line)
      text = line ? @lines[line - 1].to_s.strip : ""
      text.length > 60 ? "#{text[0, 57]}..." : text
    end
  end

  def self.string_words(text, consts, words)
    if CONST_PATH.match?(text)
      text.split("::").each { |part| consts[part] = true }
    elsif WORD.match?(text)
      (/\A[A-Z]/.match?(text) ? consts : words)[text] = true
    end
  end

  # The Ruby of an ERB template, between <% and %>.
  TEMPLATE_CODE = /<%(?!%)[=-]*(.*?)-?%>/m

  # An ERB view's names, from Ripper's tokens: its code is fragments (`<%= form_with do %>`)
  # that do not parse alone, but lex.
  def self.template_facts(source)
    consts = {}
    words = {}
    Ripper.lex(source.scan(TEMPLATE_CODE).join("\n")).each do |(_, type, value)|
      case type
      when :on_const then consts[value] = true
      when :on_ident then words[value] = true
      when :on_ivar, :on_cvar then words[value.delete("@")] = true
      when :on_label then words[value.chomp(":")] = true
      when :on_tstring_content then string_words(value, consts, words)
      end
    end
    { loads: [], globs: [], dynamic: [], computed: [], consts: consts.keys, words: words.keys, superclasses: [], error: nil }
  end

  def self.facts(root, relative)
    file = File.expand_path(relative, root)
    source = File.read(file, mode: "rb").force_encoding(Encoding::UTF_8)
    source = source.scrub unless source.valid_encoding?
    return template_facts(source) if relative.end_with?(".erb")

    tree = Ripper.sexp(source, file)
    return { error: syntax_error(source, file) } if tree.nil?

    FileFacts.new(root, file, source).read(tree)
  rescue SystemCallError, IOError => e
    { error: e.message }
  end

  # Ruby's own message for the first syntax error; compiling runs nothing.
  def self.syntax_error(source, file)
    RubyVM::InstructionSequence.compile(source, file)
    "a syntax error"
  rescue SyntaxError => e
    e.message.lines.first.to_s.strip.sub("#{file}:", "line ")
  end

  def self.run(input, output)
    request = JSON.parse(File.read(input))
    root = request.fetch("root")
    files = request.fetch("files").to_h { |relative| [relative, facts(root, relative)] }
    File.write(output, JSON.generate(files: files))
  end
end

RunTestsSourceFacts.run(ARGV.fetch(0), ARGV.fetch(1))
