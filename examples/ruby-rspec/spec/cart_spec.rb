require_relative "../lib/cart"

RSpec.describe Cart do
  it "starts empty" do
    expect(Cart.new.count).to eq(0)
  end

  it "counts quantities" do
    expect(Cart.new.add("tea", 3, quantity: 2).count).to eq(2)
  end

  describe "#total" do
    it "adds prices times quantities" do
      cart = Cart.new.add("tea", 3, quantity: 2).add("cake", 4)
      expect(cart.total).to eq(10)
    end
  end
end
