// Package libm computes the math functions whose results Go's math
// package gets visibly wrong against the C library reference Lua 5.1
// calls: exp, log, log10, pow and the hyperbolic functions. Go's differ
// where a script sees it: math.Exp gives +Inf from 709.7 up (C: up to
// 709.78), math.Log of a subnormal is off in the third digit, math.Log10
// of a power of ten is not the integer (floor(log10(1e15)) gave 14), and
// math.Pow loses up to a dozen bits for a base near 1 and a large
// exponent (1.0001^10000 differed in the 12th digit).
//
// exp, log and pow are computed in double-double arithmetic (a value is
// the unevaluated sum of two float64s, about 106 bits), so that the
// result is the float64 nearest the exact one but in rare hard cases:
// what a current C library (glibc's, within 0.52 ulp) returns. log10
// and the hyperbolic functions are the C library's own algorithms
// (fdlibm's, which glibc keeps for them) over those.
package libm

import (
	"math"
	"math/big"
)

// Every product that is added to something is converted to float64:
// the conversion rounds it, so that the compiler does not fuse the two
// into one multiply-add, which would change the result with the machine
// the code is built for (C's library is built without fusing them).

// dd is the double-double hi + lo, with |lo| at most half an ulp of hi.
type dd struct{ hi, lo float64 }

// twoSum returns a + b exactly.
func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

// quickTwoSum is twoSum for |a| >= |b|.
func quickTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

// twoProd returns a * b exactly.
func twoProd(a, b float64) dd {
	p := a * b
	return dd{p, math.FMA(a, b, -p)}
}

func add(a, b dd) dd {
	s := twoSum(a.hi, b.hi)
	t := twoSum(a.lo, b.lo)
	s.lo += t.hi
	s = quickTwoSum(s.hi, s.lo)
	s.lo += t.lo
	return quickTwoSum(s.hi, s.lo)
}

func mul(a, b dd) dd {
	p := twoProd(a.hi, b.hi)
	p.lo += float64(a.hi*b.lo) + float64(a.lo*b.hi)
	return quickTwoSum(p.hi, p.lo)
}

func mulF(a dd, b float64) dd {
	p := twoProd(a.hi, b)
	p.lo += float64(a.lo * b)
	return quickTwoSum(p.hi, p.lo)
}

// ln2 is log(2) as a double-double, ln2by64 log(2)/64.
var (
	ln2     = dd{6.93147180559945286227e-01, 2.31904681384629955842e-17}
	ln2by64 = dd{ln2.hi / 64, ln2.lo / 64}
)

// exp2by64 holds 2^(j/64) for j in [0, 64) as double-doubles, computed
// once with math/big to 200 bits.
var exp2by64 = func() (t [64]dd) {
	const prec = 200
	root := new(big.Float).SetPrec(prec).SetInt64(2)
	for range 6 {
		root.Sqrt(root)
	}
	v := new(big.Float).SetPrec(prec).SetInt64(1)
	rest := new(big.Float).SetPrec(prec)
	for j := range t {
		hi, _ := v.Float64()
		rest.Sub(v, new(big.Float).SetFloat64(hi))
		lo, _ := rest.Float64()
		t[j] = dd{hi, lo}
		v.Mul(v, root)
	}
	return t
}()

const (
	// expMax is past the largest x whose exp is finite (709.78...),
	// expMin below the smallest whose exp rounds to more than 0.
	expMax = 709.8
	expMin = -745.2
	// smallestNormal is 2^-1022.
	smallestNormal = 0x1p-1022
)

// expParts returns exp(a) as m * 2^k, m a double-double in [1, 2): a is
// reduced to r = a - n*log(2)/64, |r| <= log(2)/128, and exp(a) is
// 2^(n/64) * exp(r), exp(r) summed as its Taylor series: the terms from
// r^4/4! on, below 2^-40 of the sum, in float64, the first ones in
// double-double.
func expParts(a dd) (dd, int) {
	n := math.Round(a.hi * (64 / ln2.hi))
	r := add(a, mulF(dd{-ln2by64.hi, -ln2by64.lo}, n))
	x := r.hi
	p := x * x * x * x * (1.0/24 + x*(1.0/120+x*(1.0/720+x*(1.0/5040+x*(1.0/40320+x*(1.0/362880))))))
	r2 := mul(r, r)
	s := add(r, mulF(r2, 0.5))
	s = add(s, add(mulF(mul(r2, r), 1.0/6), dd{p, 0}))
	e := add(dd{1, 0}, s)
	ni := int(n)
	j, k := ni&63, ni>>6
	return mul(exp2by64[j], e), k
}

// round returns m * 2^k as the nearest float64.
func round(m dd, k int) float64 {
	return math.Ldexp(m.hi+m.lo, k)
}

// logDD returns log(x) for a finite x > 0 as a double-double: Go's
// math.Log, within an ulp, corrected by one step of Newton's method,
// log(x) = y + log(x*exp(-y)), where x*exp(-y) is within an ulp of 1.
func logDD(x float64) dd {
	k := 0
	switch {
	case x < smallestNormal:
		// Go's Log is far off for subnormals: scale into the normals.
		x *= 0x1p54
		k = -54
	case x > 0x1p1000:
		// e^-log(x) times x would overflow on the way.
		x *= 0x1p-54
		k = 54
	}
	y := math.Log(x)
	m, e := expParts(dd{-y, 0})
	t := mulF(m, x)
	t = dd{math.Ldexp(t.hi, e), math.Ldexp(t.lo, e)}
	d := add(t, dd{-1, 0})
	// log(1+d) = d - d^2/2 + ...: d is about 2^-52, d^3 below 2^-150.
	d = add(d, mulF(mul(d, d), -0.5))
	r := add(dd{y, 0}, d)
	if k != 0 {
		r = add(r, mulF(ln2, float64(k)))
	}
	return r
}

// Exp returns e^x as C's exp does.
func Exp(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > expMax:
		return math.Inf(1)
	case x < expMin:
		return 0
	}
	m, k := expParts(dd{x, 0})
	return round(m, k)
}

// Log returns the natural logarithm of x as C's log does.
func Log(x float64) float64 {
	if x != x || x <= 0 || math.IsInf(x, 1) {
		return math.Log(x)
	}
	r := logDD(x)
	return r.hi + r.lo
}

// invalid is the NaN an invalid operation makes on x86, as C's
// functions return it for a domain error: its sign is set.
var invalid = math.Float64frombits(0xfff8000000000000)

// Pow returns x^y as C's pow does, down to the sign of a NaN: an
// argument's, and the one a domain error makes.
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case y != y || math.IsInf(y, 0):
		if x != x {
			return x
		}
		if y != y {
			return y
		}
		return math.Pow(x, y)
	case x != x || x == 0 || math.IsInf(x, 0):
		// C's pow squares x, negates it for a negative x and an odd
		// y, and inverts it for a negative y: the special cases of C99,
		// and a NaN keeps its sign but for an odd y.
		x2 := x * x
		if math.Signbit(x) && odd(y) {
			x2 = -x2
		}
		if y < 0 {
			return 1 / x2
		}
		return x2
	}
	neg := false
	if x < 0 {
		if y != math.Trunc(y) {
			return invalid
		}
		neg = odd(y)
		x = -x
	}
	r := powPositive(x, y)
	if neg {
		return -r
	}
	return r
}

// odd reports whether y is an odd whole number.
func odd(y float64) bool {
	return y == math.Trunc(y) && math.Abs(y) < 0x1p53 && int64(y)&1 == 1
}

// powPositive is Pow for finite x > 0 and finite y: x multiplied by
// itself for a small whole y, else exp(y * log(x)), in double-double
// arithmetic.
func powPositive(x, y float64) float64 {
	if r, ok := powWhole(x, y); ok {
		return r
	}
	if math.Abs(y) > 1e300 {
		// |y*log(x)| is past any exponent a double has (x is not 1),
		// and the double-double product would overflow in its split.
		if (x > 1) == (y > 0) {
			return math.Inf(1)
		}
		return 0
	}
	p := mulF(logDD(x), y)
	switch {
	case p.hi > expMax:
		return math.Inf(1)
	case p.hi < expMin:
		return 0
	}
	m, k := expParts(p)
	return round(m, k)
}

// powWhole returns x^y for a whole y of at most 64 in magnitude, by
// squaring in double-double arithmetic, when the result is a normal
// number; ok is false otherwise.
func powWhole(x, y float64) (float64, bool) {
	if y != math.Trunc(y) || y > 64 || y < -64 {
		return 0, false
	}
	n := int(math.Abs(y))
	r, b := dd{1, 0}, dd{x, 0}
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r = mul(r, b)
		}
		b = mul(b, b)
	}
	if y < 0 {
		// 1/r: q + (1 - q*r)/r.hi.
		q := 1 / r.hi
		e := add(dd{1, 0}, mulF(dd{-r.hi, -r.lo}, q))
		r = add(dd{q, 0}, dd{e.hi / r.hi, 0})
	}
	v := r.hi + r.lo
	if math.IsInf(v, 0) || v != v || math.Abs(v) < smallestNormal {
		return 0, false
	}
	return v, true
}

// Constants of fdlibm's e_log10.c.
const (
	ivln10   = 4.34294481903251816668e-01
	log10hi  = 3.01029995663611771306e-01
	log10lo  = 3.69423907715893078616e-13
	twoTo54  = 0x1p54
	expoMask = 0x7ff
)

// Log10 returns the base-10 logarithm of x as C's log10 does: fdlibm's
// algorithm, k*log10(2) + log(m)/log(10) for x = m * 2^k, which gives
// exactly n for 10^n.
func Log10(x float64) float64 {
	if x != x || x <= 0 || math.IsInf(x, 1) {
		return math.Log10(x)
	}
	k := 0
	if x < smallestNormal {
		k -= 54
		x *= twoTo54
	}
	bits := math.Float64bits(x)
	k += int(bits>>52&expoMask) - 1023
	i := 0
	if k < 0 {
		i = 1
	}
	// m in [1, 2), or in [0.5, 1) when k < 0, so that y*log10hi is exact.
	m := math.Float64frombits(bits&(1<<52-1) | uint64(1023-i)<<52)
	y := float64(k + i)
	z := float64(y*log10lo) + float64(ivln10*Log(m))
	return z + float64(y*log10hi)
}

// The hyperbolic functions compare |x| as fdlibm does, by its high 32
// bits: highWord(22) is 0x40360000.
func highWord(x float64) uint32 { return uint32(math.Float64bits(x)>>32) & 0x7fffffff }

// Bounds of fdlibm's hyperbolic functions, as high words: 22, 0.5*log(2),
// log(MaxFloat64) and 1; 2^-55 and 2^-28; and the largest x whose cosh
// is finite (high and low word).
const (
	hw22       = 0x40360000
	hwHalfLn2  = 0x3fd62e43
	hwLogMax   = 0x40862e42
	hwOne      = 0x3ff00000
	hwTiny55   = 0x3c800000
	hwTiny28   = 0x3e300000
	hwOverHigh = 0x408633ce
	lwOverLow  = 0x8fb9f87d
)

// belowOverflow reports whether |x| is at most the largest x whose cosh
// is finite.
func belowOverflow(x float64) bool {
	hw, lw := highWord(x), uint32(math.Float64bits(x))
	return hw < hwOverHigh || hw == hwOverHigh && lw <= lwOverLow
}

// Cosh returns the hyperbolic cosine of x as C's cosh does (fdlibm's
// e_cosh.c over Exp).
func Cosh(x float64) float64 {
	if x != x || math.IsInf(x, 0) {
		return x * x
	}
	ax, hw := math.Abs(x), highWord(x)
	switch {
	case hw < hwTiny55:
		return 1
	case hw < hwHalfLn2:
		t := math.Expm1(ax)
		w := 1 + t
		return 1 + (t*t)/(w+w)
	case hw < hw22:
		t := Exp(ax)
		return float64(0.5*t) + 0.5/t
	case hw < hwLogMax:
		return 0.5 * Exp(ax)
	case belowOverflow(x):
		w := Exp(0.5 * ax)
		t := 0.5 * w
		return t * w
	}
	return math.Inf(1)
}

// Sinh returns the hyperbolic sine of x as C's sinh does (fdlibm's
// e_sinh.c over Exp).
func Sinh(x float64) float64 {
	if x != x || math.IsInf(x, 0) {
		return x + x
	}
	h := 0.5
	if x < 0 {
		h = -h
	}
	ax, hw := math.Abs(x), highWord(x)
	switch {
	case hw < hwTiny28:
		return x
	case hw < hw22:
		t := math.Expm1(ax)
		if hw < hwOne {
			return h * (float64(2*t) - t*t/(t+1))
		}
		return h * (t + t/(t+1))
	case hw < hwLogMax:
		return h * Exp(ax)
	case belowOverflow(x):
		w := Exp(0.5 * ax)
		t := h * w
		return t * w
	}
	return x * math.Inf(1)
}

// Tanh returns the hyperbolic tangent of x as C's tanh does (fdlibm's
// s_tanh.c).
func Tanh(x float64) float64 {
	if x != x {
		return x
	}
	if math.IsInf(x, 0) {
		return math.Copysign(1, x)
	}
	ax, hw := math.Abs(x), highWord(x)
	var z float64
	switch {
	case x == 0:
		return x
	case hw < hwTiny55:
		return x * (1 + x)
	case hw >= hw22:
		z = 1
	case hw >= hwOne:
		t := math.Expm1(2 * ax)
		z = 1 - 2/(t+2)
	default:
		t := math.Expm1(-2 * ax)
		z = -t / (t + 2)
	}
	return math.Copysign(z, x)
}
