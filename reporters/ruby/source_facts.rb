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
#              a literal, or built from literals and __dir__, __FILE__, Rails.root (abs: true)
#   globs:     [{pattern, abs, line}] Dir[...] / Dir.glob(...) whose files a block requires
#   dynamic:   [{line, what}] a load whose path cannot be told
#   computed:  [{line, what}] constantize / const_get of a computed name (autoloading loads it)
#   consts:    constant names; words: identifiers, symbols, labels, instance variables and
#              one-word strings; superclasses: the last name of each `class X < Y`'s Y
#   error:     why the file could not be read, or null
require "json"
require "ripper"

module RunTestsSourceFacts
  LOADS = %w[require require_relative load require_dependency autoload].freeze
  WORD = /\A[A-Za-z_]\w*[?!]?\z/
  CONST_PATH = /\A[A-Z]\w*(?:::[A-Z]\w*)+\z/

  class FileFacts
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

    def args_of(node)
      return [] if node.nil?
      return nil unless node.is_a?(Array)
      return args_of(node[1]) if node[0] == :args_add_block
      return nil if %i[args_add_star args_forward].include?(node[0])

      node[0].is_a?(Symbol) ? nil : node
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
      if path.nil?
        glob = @glob_stack.last
        param = var_name(args[0])
        return @globs << { pattern: glob[:pattern], abs: glob[:abs], line: line } if glob && glob[:params].include?(param) && glob[:pattern]

        return dynamic(node)
      end
      @loads << { kind: name, path: path[1], abs: path[0] == :abs, line: line }
    end

    # `Dir[...].each(&method(:require))`
    def glob_pass(node, _pass)
      glob = glob_in(node[1])
      return dynamic(node) unless glob && glob[:pattern]

      @globs << { pattern: glob[:pattern], abs: glob[:abs], line: line_of(node) }
    end

    def symbol_arg(block)
      return nil unless block[0] == :method_add_arg && block[1][0] == :fcall && block[1][1][1] == "method"

      arg = args_of(block[2].is_a?(Array) && block[2][0] == :arg_paren ? block[2][1] : block[2])&.first
      arg && symbol?(arg) ? arg[1][1][1] : nil
    end

    # A block on a chain that starts at a Dir glob: loads of its parameter are of the glob's files.
    def walk_glob_block(node)
      glob = glob_in(node[1])
      return false unless glob

      params = []
      collect_params(node[2][1], params) if node[2].is_a?(Array)
      @glob_stack.push(glob.merge(params: params))
      node.each { |child| walk(child) }
      @glob_stack.pop
      true
    end

    def collect_params(node, out)
      return unless node.is_a?(Array)

      out << node[1] if node[0] == :@ident
      node.each { |child| collect_params(child, out) }
    end

    def glob_in(node)
      while node.is_a?(Array)
        case node[0]
        when :aref
          return glob_of(node[2]) if const_named?(node[1], "Dir")

          node = node[1]
        when :method_add_arg
          target = node[1]
          if target[0] == :call && target[3].is_a?(Array) && glob_call?(target)
            paren = node[2]
            return glob_of(paren.is_a?(Array) && paren[0] == :arg_paren ? paren[1] : paren)
          end
          node = target
        when :call, :method_add_block then node = node[1]
        else return nil
        end
      end
      nil
    end

    def glob_call?(target)
      name = target[3][1]
      (const_named?(target[1], "Dir") && %w[glob []].include?(name)) || (name == "glob" && rails_root?(target[1]))
    end

    def glob_of(args_node)
      first = args_of(args_node)&.first
      path = first && value(first)
      { pattern: path && path[1], abs: path ? path[0] == :abs : false, params: [] }
    end

    def computed_constant(node)
      name = node[3].is_a?(Array) ? node[3][1] : nil
      return unless %w[constantize safe_constantize].include?(name)

      computed(node) unless literal(node[1])
    end

    # A path as [:lit, relative] or [:abs, absolute], or nil when it is computed.
    def value(node)
      return nil unless node.is_a?(Array)

      case node[0]
      when :string_literal then string_value(node[1])
      when :var_ref
        node[1][0] == :@kw && node[1][1] == "__FILE__" ? [:abs, @file] : nil
      when :vcall, :fcall
        node[1][1] == "__dir__" ? [:abs, @dir] : nil
      when :paren then node[1].is_a?(Array) && node[1].length == 1 ? value(node[1][0]) : nil
      when :binary then node[2] == :+ ? concat(value(node[1]), value(node[3])) : nil
      when :method_add_arg, :call then method_value(node)
      end
    end

    def string_value(content)
      return [:lit, ""] if content.nil?
      return nil unless content.is_a?(Array) && content[0] == :string_content

      content[1..].reduce([:lit, ""]) do |acc, part|
        piece = case part[0]
                when :@tstring_content then [:lit, part[1]]
                when :string_embexpr then part[1].is_a?(Array) && part[1].length == 1 ? value(part[1][0]) : nil
                end
        concat(acc, piece)
      end
    end

    def concat(left, right)
      return nil if left.nil? || right.nil? || right[0] == :abs && left[1] != ""

      right[0] == :abs ? right : [left[0], left[1] + right[1]]
    end

    def method_value(node)
      target, args = node[0] == :call ? [node, []] : [node[1], args_of(node[2].is_a?(Array) && node[2][0] == :arg_paren ? node[2][1] : node[2])]
      return nil unless target[0] == :call && target[3].is_a?(Array) && args

      name = target[3][1]
      receiver = target[1]
      return value(receiver) if %w[to_s to_path].include?(name) && args.empty?
      return [:abs, @root] if name == "root" && const_named?(receiver, "Rails") && args.empty?

      values = args.map { |arg| value(arg) }
      return nil if values.include?(nil)

      if const_named?(receiver, "File")
        file_method(name, values)
      elsif name == "join" && (base = value(receiver)) && base[0] == :abs
        values.all? { |v| v[0] == :lit } ? [:abs, File.join(base[1], *values.map(&:last))] : nil
      end
    end

    def file_method(name, values)
      case name
      when "expand_path"
        return nil unless values.length.between?(1, 2)

        base = values[1] ? File.expand_path(values[1][1], @root) : @root
        [:abs, File.expand_path(values[0][1], base)]
      when "join"
        return nil if values.empty? || values[1..].any? { |v| v[0] == :abs }

        [values[0][0], File.join(*values.map(&:last))]
      when "dirname"
        values.length == 1 && values[0][0] == :abs ? [:abs, File.dirname(values[0][1])] : nil
      end
    end

    def rails_root?(node)
      node.is_a?(Array) && node[0] == :call && const_named?(node[1], "Rails") && node[3].is_a?(Array) && node[3][1] == "root"
    end

    def const_named?(node, name)
      node.is_a?(Array) && %i[var_ref top_const_ref].include?(node[0]) && node[1][0] == :@const && node[1][1] == name
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
