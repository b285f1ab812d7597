# Converts between Celsius and Fahrenheit.
module Temperature
  module_function

  def to_fahrenheit(celsius)
    celsius * 9.0 / 5 + 32
  end

  def to_celsius(fahrenheit)
    (fahrenheit - 32) * 5.0 / 9
  end
end
