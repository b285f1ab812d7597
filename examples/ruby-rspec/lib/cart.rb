# A shopping cart with a deliberate bug in #total, to show a failing run.
class Cart
  def initialize
    @items = []
  end

  def add(name, price, quantity: 1)
    @items << { name: name, price: price, quantity: quantity }
    self
  end

  def count
    @items.sum { |item| item[:quantity] }
  end

  def total
    @items.sum { |item| item[:price] } # forgets the quantity
  end
end
