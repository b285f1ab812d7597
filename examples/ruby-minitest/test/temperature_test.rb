require "minitest/autorun"
require "temperature"

class TemperatureTest < Minitest::Test
  def test_freezing_point
    assert_equal 32.0, Temperature.to_fahrenheit(0)
  end

  def test_boiling_point
    assert_equal 100.0, Temperature.to_celsius(212)
  end

  def test_round_trip
    assert_in_delta 21.5, Temperature.to_celsius(Temperature.to_fahrenheit(21.5))
  end

  def test_kelvin
    skip "Kelvin is not supported yet"
  end
end
