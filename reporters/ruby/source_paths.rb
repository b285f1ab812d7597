# frozen_string_literal: true

# The paths a load or a glob names, for source_facts.rb, where Ruby code builds them from
# literals and what a file knows of itself: __dir__, __FILE__, File.expand_path,
# File.join, File.dirname, `+`, interpolation, Pathname, Rails.root and #join (anything
# else is computed: nil); and the Dir globs whose files a block requires. The including
# class has @root, @file, @dir, @globs, @glob_stack, walk, dynamic and line_of.
module RunTestsSourcePaths
  private

  def args_of(node)
    return [] if node.nil?
    return nil unless node.is_a?(Array)
    return args_of(node[1]) if node[0] == :args_add_block
    return nil if %i[args_add_star args_forward].include?(node[0])

    node[0].is_a?(Symbol) ? nil : node
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
              when :string_embexpr then string_piece(part)
              end
      concat(acc, piece)
    end
  end

  # `"plugins/#{name}"`: a string that starts with a literal path and goes on computed, as
  # {abs:, parts: [text, nil, text ...]} (nil for each computed part); else nil.
  def path_pattern(node)
    return nil unless node.is_a?(Array) && node[0] == :string_literal && node[1].is_a?(Array) && node[1][0] == :string_content

    abs = false
    parts = []
    node[1][1..].each_with_index do |part, i|
      piece = part[0] == :@tstring_content ? [:lit, part[1]] : string_piece(part)
      if piece.nil?
        parts << nil unless parts.last.nil? && !parts.empty?
      else
        return nil if piece[0] == :abs && i.positive?

        abs ||= piece[0] == :abs
        parts.last.is_a?(String) ? parts[-1] = parts.last + piece[1] : parts << piece[1]
      end
    end
    parts.first.is_a?(String) && !parts.first.empty? && parts.include?(nil) ? { abs: abs, parts: parts } : nil
  end

  def string_piece(part)
    part[0] == :string_embexpr && part[1].is_a?(Array) && part[1].length == 1 ? value(part[1][0]) : nil
  end

  def concat(left, right)
    return nil if left.nil? || right.nil? || right[0] == :abs && left[1] != ""

    right[0] == :abs ? right : [left[0], left[1] + right[1]]
  end

  def method_value(node)
    target, args = node[0] == :call ? [node, []] : [node[1], args_of(node[2].is_a?(Array) && node[2][0] == :arg_paren ? node[2][1] : node[2])]
    return nil unless args
    # Pathname(x)
    return args.length == 1 ? value(args[0]) : nil if target[0] == :fcall && target[1][1] == "Pathname"
    return nil unless target[0] == :call && target[3].is_a?(Array)

    name = target[3][1]
    receiver = target[1]
    return value(receiver) if %w[to_s to_path expand_path].include?(name) && args.empty?
    return [:abs, @root] if name == "root" && const_named?(receiver, "Rails") && args.empty?
    return args.length == 1 ? value(args[0]) : nil if name == "new" && const_named?(receiver, "Pathname")

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
end
