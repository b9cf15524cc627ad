-- Powers whose exponent is past any a double has, and logarithms near the
-- largest double: infinities and zeros, never NaN.
print(10^1e308, 10^-1e308, 7.9^1e308, 0.1^1e308, math.pow(100, 1e308), 1e-300^1e306, 0.5^-1e308, 2^1e300, 1.0000001^1e301)
print(math.log(1.7976931348623157e308), math.log(1.7e308), math.log(1.79e308), math.log(9.4967987217171931e+307), math.log(2^1000), math.log(2^1001))
print(1.7976931348623157e308^0.5, 1.7e308^0.25, math.exp(709.7), (1e308)^1.0000001)
