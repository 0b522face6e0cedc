package api

import (
	"bytes"
	"errors"
	"math/big"
	"strconv"
	"strings"
)

// Format is how a Quantity is written back: the family of suffixes it was parsed with.
type Format string

const (
	DecimalExponent Format = "DecimalExponent" // e.g. 12e6
	BinarySI        Format = "BinarySI"        // e.g. 12Mi (12 * 2^20)
	DecimalSI       Format = "DecimalSI"       // e.g. 12M (12 * 10^6)
)

// The errors ParseQuantity returns, worded exactly as apimachinery words them.
var (
	ErrFormatWrong = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	ErrNumeric     = errors.New("unable to parse numeric part of quantity")
	ErrSuffix      = errors.New("unable to parse quantity's suffix")
)

// maxExponent bounds a decimal exponent. apimachinery has no bound and spends unbounded memory on
// "1e2000000000"; a learner's typo must not freeze the page, so such a quantity is ErrNumeric here.
const maxExponent = 1 << 16

// Quantity is a fixed-point number with a unit suffix, as resource.Quantity in
// k8s.io/apimachinery/pkg/api/resource. The rules it follows:
//
//  1. The grammar is <signedNumber><suffix>, the suffix one of the binary SI suffixes Ki Mi Gi Ti Pi
//     Ei, the decimal SI suffixes n u m "" k M G T P E, or a decimal exponent e<int> / E<int>.
//     Suffixes are case-sensitive.
//  2. Values keep nano precision: a non-zero value is rounded away from zero to the next 1n.
//  3. Binary SI values are capped at 2^63-1; a binary value between 0 and 1 becomes decimal SI.
//  4. The canonical form loses no precision, has no fractional digits and uses the largest
//     exponent (a multiple of 3 for decimal forms, a power of 1024 that divides the value exactly
//     for binary SI, which falls back to decimal SI below 1024 or when not an integer).
//  5. When the text as typed already looks canonical (apimachinery's fast path), it is kept and
//     echoed back as typed: "1." stays "1.", "05" stays "05".
//
// The zero value is 0 in DecimalSI.
type Quantity struct {
	unscaled big.Int // value = unscaled * 10^-scale
	scale    int32
	Format   Format
	s        string // the text as typed, when rule 5 keeps it
}

// MustParseQuantity parses s and panics when it is not a quantity; for constants in code and tests.
func MustParseQuantity(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic("cannot parse '" + s + "': " + err.Error())
	}
	return q
}

// ParseQuantity parses s as Kubernetes' API server does.
func ParseQuantity(s string) (Quantity, error) {
	if len(s) == 0 {
		return Quantity{}, ErrFormatWrong
	}
	if s == "0" {
		return Quantity{Format: DecimalSI, s: s}, nil
	}
	p, err := splitQuantity(s)
	if err != nil {
		return Quantity{}, err
	}
	base, exponent, format, ok := interpretSuffix(p.suffix)
	if !ok {
		return Quantity{}, ErrSuffix
	}
	if base == 10 && (exponent > maxExponent || exponent < -maxExponent) {
		return Quantity{}, ErrNumeric
	}
	fast, keep := fastPath(p, exponent, format)
	if !fast && !strings.ContainsAny(p.text, "0123456789") {
		return Quantity{}, ErrNumeric // apimachinery's slow path parses the digits as typed: none fails
	}
	var q Quantity
	q.Format = format
	if _, ok := q.unscaled.SetString(p.num+p.denom, 10); !ok {
		return Quantity{}, ErrNumeric
	}
	q.scale = int32(len(p.denom))
	if base == 10 {
		q.scale -= exponent
	} else {
		q.unscaled.Lsh(&q.unscaled, uint(exponent))
	}
	if !p.positive {
		q.unscaled.Neg(&q.unscaled)
	}
	q.roundToNano()
	if format == BinarySI {
		q.capBinary()
	}
	if keep {
		q.s = s
	}
	return q, nil
}

// quantityParts is the text of a quantity split into its pieces.
type quantityParts struct {
	positive   bool
	num, denom string // digits before and after the point, leading zeros of num removed
	text       string // the number as typed, without the suffix
	suffix     string
}

// splitQuantity splits s into sign, numerator, denominator and suffix, as apimachinery's
// parseQuantityString does, with its quirks: "1." and ".5" are numbers, and a suffix with no
// digits in front ("Mi") is zero.
func splitQuantity(s string) (quantityParts, error) {
	p := quantityParts{positive: true}
	pos, end := 0, len(s)
	switch s[0] {
	case '-':
		p.positive = false
		pos++
	case '+':
		pos++
	}
	for pos < end && s[pos] == '0' {
		pos++
	}
	if pos == end {
		p.num, p.text = "0", "0"
		return p, nil
	}
	start := pos
	for pos < end && isDigit(s[pos]) {
		pos++
	}
	p.num = s[start:pos]
	if p.num == "" {
		p.num = "0"
	}
	if pos < end && s[pos] == '.' {
		pos++
		start = pos
		for pos < end && isDigit(s[pos]) {
			pos++
		}
		p.denom = s[start:pos]
	}
	start = pos
	p.text = s[:pos]
	for pos < end && strings.IndexByte("eEinumkKMGTP", s[pos]) >= 0 {
		pos++
	}
	if pos < end && (s[pos] == '-' || s[pos] == '+') {
		pos++
	}
	for pos < end && isDigit(s[pos]) {
		pos++
	}
	if pos < end {
		return quantityParts{}, ErrFormatWrong
	}
	p.suffix = s[start:]
	return p, nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

var binarySuffixes = map[string]int32{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}

var decimalSuffixes = map[string]int32{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}

// interpretSuffix returns the base (2 or 10), exponent and format a suffix stands for.
func interpretSuffix(suffix string) (base, exponent int32, format Format, ok bool) {
	if e, ok := decimalSuffixes[suffix]; ok {
		return 10, e, DecimalSI, true
	}
	if e, ok := binarySuffixes[suffix]; ok {
		return 2, e, BinarySI, true
	}
	if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		n, err := strconv.ParseInt(suffix[1:], 10, 64)
		if err != nil {
			return 0, 0, DecimalExponent, false
		}
		return 10, int32(n), DecimalExponent, true // apimachinery truncates to int32 as well
	}
	return 0, 0, DecimalExponent, false
}

// fastPath reports whether apimachinery parses p on its int64 fast path, and whether that path
// keeps the text as typed (rule 5).
func fastPath(p quantityParts, exponent int32, format Format) (fast, keep bool) {
	digits := p.num + p.denom
	switch format {
	case BinarySI:
		if len(p.denom) > 0 || 15-len(p.num)-int(float32(exponent)*3/10)-1 < 0 {
			return false, false
		}
		v, err := strconv.ParseInt(digits, 10, 64)
		if err != nil || !fitsShift(v, exponent) {
			return false, false
		}
		return true, exponent%10 == 0 && v&0x07 != 0
	default:
		scale := exponent - int32(len(p.denom))
		if 18-len(digits) < 0 || scale < -9 {
			return false, false
		}
		if _, err := strconv.ParseInt(digits, 10, 64); err != nil {
			return false, false
		}
		return true, scale%3 == 0 && !strings.HasSuffix(digits, "000") && digits[0] != '0'
	}
}

func fitsShift(v int64, exponent int32) bool {
	return exponent < 63 && v <= (1<<63-1)>>uint(exponent)
}

var (
	bigTen        = big.NewInt(10)
	maxBinarySI   = big.NewInt(1<<63 - 1)
	bigThousand   = big.NewInt(1000)
	big1024       = big.NewInt(1024)
	canonicalZero = "0"
)

// roundToNano applies rule 2.
func (q *Quantity) roundToNano() {
	if q.scale <= 9 {
		return
	}
	div := new(big.Int).Exp(bigTen, big.NewInt(int64(q.scale-9)), nil)
	neg := q.unscaled.Sign() < 0
	abs := new(big.Int).Abs(&q.unscaled)
	quo, rem := new(big.Int).QuoRem(abs, div, new(big.Int))
	if rem.Sign() != 0 {
		quo.Add(quo, big.NewInt(1))
	}
	if neg {
		quo.Neg(quo)
	}
	q.unscaled.Set(quo)
	q.scale = 9
}

// capBinary applies rule 3.
func (q *Quantity) capBinary() {
	limit := new(big.Int).Mul(maxBinarySI, pow10(q.scale))
	if new(big.Int).Abs(&q.unscaled).Cmp(limit) > 0 {
		neg := q.unscaled.Sign() < 0
		q.unscaled.Set(maxBinarySI)
		if neg {
			q.unscaled.Neg(&q.unscaled)
		}
		q.scale = 0
	}
	if q.unscaled.Sign() > 0 && q.Cmp(Quantity{unscaled: *big.NewInt(1)}) < 0 {
		q.Format = DecimalSI
	}
}

func pow10(n int32) *big.Int {
	if n <= 0 {
		return big.NewInt(1)
	}
	return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
}

// IsZero reports whether q is 0.
func (q Quantity) IsZero() bool { return q.unscaled.Sign() == 0 }

// Sign returns -1, 0 or +1.
func (q Quantity) Sign() int { return q.unscaled.Sign() }

// Cmp compares q and y numerically: -1, 0 or +1.
func (q Quantity) Cmp(y Quantity) int {
	a, b := q.at(max(q.scale, y.scale)), y.at(max(q.scale, y.scale))
	return a.Cmp(b)
}

// Equal reports whether q and y are numerically equal (1 == 1000m, 1Gi == 1024Mi).
func (q Quantity) Equal(y Quantity) bool { return q.Cmp(y) == 0 }

// at returns the unscaled value of q at the given scale (which must be >= q.scale).
func (q Quantity) at(scale int32) *big.Int {
	return new(big.Int).Mul(&q.unscaled, pow10(scale-q.scale))
}

// Add returns q+y in q's format; the sum is written in canonical form.
func (q Quantity) Add(y Quantity) Quantity {
	s := max(q.scale, y.scale)
	var r Quantity
	r.unscaled.Add(q.at(s), y.at(s))
	r.scale = s
	r.Format = q.Format
	if r.Format == "" {
		r.Format = y.Format
	}
	return r
}

// scaled returns q * 10^scale rounded away from zero to an integer, clamped to int64 (where
// apimachinery returns an overflowed number).
func (q Quantity) scaled(scale int32) int64 {
	v := new(big.Int)
	if shift := q.scale - scale; shift <= 0 {
		v.Mul(&q.unscaled, pow10(-shift))
	} else {
		div := pow10(shift)
		abs := new(big.Int).Abs(&q.unscaled)
		quo, rem := v.QuoRem(abs, div, new(big.Int))
		if rem.Sign() != 0 {
			quo.Add(quo, big.NewInt(1))
		}
		if q.unscaled.Sign() < 0 {
			quo.Neg(quo)
		}
	}
	switch {
	case v.IsInt64():
		return v.Int64()
	case v.Sign() < 0:
		return -1 << 63
	default:
		return 1<<63 - 1
	}
}

// Value returns q rounded away from zero to an integer (100m is 1).
func (q Quantity) Value() int64 { return q.scaled(0) }

// MilliValue returns q in thousandths, rounded away from zero (0.0001 is 1).
func (q Quantity) MilliValue() int64 { return q.scaled(3) }

// String returns the text as typed when rule 5 kept it, the canonical form otherwise.
func (q Quantity) String() string {
	if q.s != "" {
		return q.s
	}
	return q.Canonical()
}

// Canonical returns the canonical form (rule 4), whatever was typed.
func (q Quantity) Canonical() string {
	if q.IsZero() {
		return canonicalZero
	}
	format := q.Format
	if format == "" {
		format = DecimalExponent
	}
	if format == BinarySI {
		thousand := Quantity{unscaled: *big.NewInt(1024)}
		if new(big.Int).Abs(q.at(max(q.scale, 0))).Cmp(thousand.at(max(q.scale, 0))) < 0 || q.scale > 0 && !q.isInteger() {
			format = DecimalSI
		}
	}
	if format == BinarySI {
		v := q.at(max(q.scale, 0))
		if q.scale > 0 {
			v.Quo(v, pow10(q.scale))
		}
		neg := v.Sign() < 0
		v.Abs(v)
		exp := 0
		for v.Cmp(big1024) >= 0 && new(big.Int).Rem(v, big1024).Sign() == 0 && exp < 6 {
			v.Quo(v, big1024)
			exp++
		}
		if neg {
			v.Neg(v)
		}
		return v.String() + [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}[exp]
	}
	m := new(big.Int).Set(&q.unscaled)
	exp := -q.scale
	r := new(big.Int)
	for {
		quo, rem := new(big.Int).QuoRem(m, bigTen, r)
		if rem.Sign() != 0 {
			break
		}
		m = quo
		exp++
	}
	for exp%3 != 0 {
		m.Mul(m, bigTen)
		exp--
	}
	num := m.String()
	if format == DecimalExponent {
		if exp == 0 {
			return num
		}
		return num + "e" + strconv.Itoa(int(exp))
	}
	for suffix, e := range decimalSuffixes {
		if e == exp {
			return num + suffix
		}
	}
	return num // apimachinery has no suffix beyond E either and prints the bare number
}

func (q Quantity) isInteger() bool {
	return new(big.Int).Rem(&q.unscaled, pow10(q.scale)).Sign() == 0
}

// MarshalJSON writes q as a JSON string.
func (q Quantity) MarshalJSON() ([]byte, error) {
	return []byte(strconv.Quote(q.String())), nil
}

// readBack returns what q's JSON reads back as: q parsed from its text. A quantity that keeps its
// text as typed came from parsing that text (rule 5) and is that already; its digits are shared,
// which is safe as no method changes a Quantity.
func (q Quantity) readBack() Quantity {
	if q.s != "" {
		return q
	}
	parsed, err := ParseQuantity(q.Canonical())
	if err != nil {
		panic("quantity: its canonical form does not parse: " + err.Error())
	}
	return parsed
}

// UnmarshalJSON reads a JSON string or number; like apimachinery it trims surrounding
// whitespace and reads null as 0.
func (q *Quantity) UnmarshalJSON(data []byte) error {
	if bytes.Equal(data, []byte("null")) {
		*q = Quantity{}
		return nil
	}
	if l := len(data); l >= 2 && data[0] == '"' && data[l-1] == '"' {
		data = data[1 : l-1]
	}
	parsed, err := ParseQuantity(strings.TrimSpace(string(data)))
	if err != nil {
		return err
	}
	*q = parsed
	return nil
}
