package lualib

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/laux"
)

// The sandbox's os library: the clock and the calendar
// only. date and time follow Lua 5.1 on a C library in the "C" locale
// (glibc's strftime conversions); date's output is bounded.

// installOS returns the sandbox's os table: gopher-lua's clock, and date,
// time and difftime of our own, date bounded by maxSize.
func installOS(L *lua.LState, orig *lua.LTable, maxSize int) *lua.LTable {
	os := L.CreateTable(0, 4)
	os.RawSetString("clock", orig.RawGetString("clock"))
	os.RawSetString("date", L.NewFunction(func(L *lua.LState) int { return osDate(L, maxSize) }))
	os.RawSetString("time", L.NewFunction(osTime))
	os.RawSetString("difftime", L.NewFunction(osDifftime))
	return os
}

// os.difftime(t2 [, t1]) returns t2 - t1 in seconds (t1 defaults to 0).
func osDifftime(L *lua.LState) int {
	L.Push(lua.LNumber(laux.CheckNumber(L, 1) - laux.OptNumber(L, 2, 0)))
	return 1
}

// os.time([t]) returns the current time in seconds since the epoch, or
// the time of the date table t (local time; year, month and day
// required, hour 12, min and sec 0 by default; out-of-range fields are
// normalised, so day 32 of January is the 1st of February).
func osTime(L *lua.LState) int {
	if L.Get(1) == lua.LNil {
		L.Push(lua.LNumber(time.Now().Unix()))
		return 1
	}
	t := L.CheckTable(1)
	field := func(key string, def int) int {
		if n, ok := t.RawGetString(key).(lua.LNumber); ok {
			return int(n)
		}
		if s, ok := t.RawGetString(key).(lua.LString); ok {
			if n, ok := laux.ToNumber(string(s)); ok {
				return int(n)
			}
		}
		if def < 0 {
			laux.Raise(L, fmt.Sprintf("field '%s' missing in date table", key))
		}
		return def
	}
	sec, mn, hour := field("sec", 0), field("min", 0), field("hour", 12)
	day, month, year := field("day", -1), field("month", -1), field("year", -1)
	d := time.Date(year, time.Month(month), day, hour, mn, sec, 0, time.Local)
	L.Push(lua.LNumber(d.Unix()))
	return 1
}

// os.date([format [, t]]) formats time t (default: now) as strftime does
// in the C locale; a format starting with "!" uses UTC, and "*t" (or
// "!*t") returns a table of year, month, day, hour, min, sec, wday, yday
// and isdst. A result longer than maxSize is an error.
func osDate(L *lua.LState, maxSize int) int {
	format := laux.OptString(L, 1, "%c")
	secs := time.Now().Unix()
	if L.Get(2) != lua.LNil {
		f := laux.CheckNumber(L, 2)
		if math.IsNaN(f) || math.Abs(f) > 1<<55 {
			L.Push(lua.LNil)
			return 1
		}
		secs = int64(f)
	}
	loc := time.Local
	if strings.HasPrefix(format, "!") {
		loc = time.UTC
		format = format[1:]
	}
	t := time.Unix(secs, 0).In(loc)
	if format == "*t" {
		tbl := L.CreateTable(0, 9)
		for _, f := range []struct {
			k string
			v int
		}{{"year", t.Year()}, {"month", int(t.Month())}, {"day", t.Day()}, {"hour", t.Hour()},
			{"min", t.Minute()}, {"sec", t.Second()}, {"wday", int(t.Weekday()) + 1}, {"yday", t.YearDay()}} {
			tbl.RawSetString(f.k, lua.LNumber(f.v))
		}
		tbl.RawSetString("isdst", lua.LBool(t.IsDST()))
		L.Push(tbl)
		return 1
	}
	if dateMinSize(format) > maxSize {
		laux.Raise(L, fmt.Sprintf("os.date: result too large (limit %d bytes)", maxSize))
	}
	var b strings.Builder
	p := poller{L: L}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			b.WriteByte(format[i])
		} else {
			i++
			strftime(&b, format[i], t, loc == time.UTC)
		}
		if b.Len() > maxSize {
			laux.Raise(L, fmt.Sprintf("os.date: result too large (limit %d bytes)", maxSize))
		}
		p.tick()
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// dateMinLen is the shortest output of each conversion, plus one (0
// marks an unknown conversion, written as it is in 2 bytes).
var dateMinLen = [256]uint8{
	'a': 4, 'A': 7, 'b': 4, 'h': 4, 'B': 4, 'c': 25, 'C': 3, 'd': 3, 'D': 9, 'x': 9,
	'e': 3, 'F': 11, 'g': 3, 'G': 5, 'H': 3, 'I': 3, 'j': 4, 'k': 3, 'l': 3, 'm': 3,
	'M': 3, 'n': 2, 'p': 3, 'P': 3, 'r': 12, 'R': 6, 's': 2, 'S': 3, 't': 2, 'T': 9,
	'X': 9, 'u': 2, 'U': 3, 'V': 3, 'w': 2, 'W': 3, 'y': 3, 'Y': 2, 'z': 6, 'Z': 1, '%': 2,
}

// dateMinSize is the shortest output format can give: os.date refuses a
// format whose output cannot fit at once, before formatting anything.
func dateMinSize(format string) int {
	n := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			n++
			continue
		}
		i++
		if m := int(dateMinLen[format[i]]); m > 0 {
			n += m - 1
		} else {
			n += 2
		}
	}
	return n
}

var (
	weekdays = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	months   = []string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
)

// strftime writes conversion c of time t as glibc's strftime does in the
// C locale; an unknown conversion is written as it is ("%q").
func strftime(b *strings.Builder, c byte, t time.Time, utc bool) {
	num := func(n, width int, pad byte) {
		s := strconv.Itoa(n)
		for range width - len(s) {
			b.WriteByte(pad)
		}
		b.WriteString(s)
	}
	hour12 := t.Hour() % 12
	if hour12 == 0 {
		hour12 = 12
	}
	yday := t.YearDay() - 1
	wday := int(t.Weekday())
	switch c {
	case 'a':
		b.WriteString(weekdays[wday][:3])
	case 'A':
		b.WriteString(weekdays[wday])
	case 'b', 'h':
		b.WriteString(months[t.Month()-1][:3])
	case 'B':
		b.WriteString(months[t.Month()-1])
	case 'c':
		for _, sub := range []byte("a b e H:M:S Y") {
			if sub == ' ' || sub == ':' {
				b.WriteByte(sub)
			} else {
				strftime(b, sub, t, utc)
			}
		}
	case 'C':
		num(t.Year()/100, 2, '0')
	case 'd':
		num(t.Day(), 2, '0')
	case 'D', 'x':
		num(int(t.Month()), 2, '0')
		b.WriteByte('/')
		num(t.Day(), 2, '0')
		b.WriteByte('/')
		num(t.Year()%100, 2, '0')
	case 'e':
		num(t.Day(), 2, ' ')
	case 'F':
		num(t.Year(), 1, '0')
		b.WriteByte('-')
		num(int(t.Month()), 2, '0')
		b.WriteByte('-')
		num(t.Day(), 2, '0')
	case 'g':
		y, _ := t.ISOWeek()
		num(y%100, 2, '0')
	case 'G':
		y, _ := t.ISOWeek()
		num(y, 1, '0')
	case 'H':
		num(t.Hour(), 2, '0')
	case 'I':
		num(hour12, 2, '0')
	case 'j':
		num(yday+1, 3, '0')
	case 'k':
		num(t.Hour(), 2, ' ')
	case 'l':
		num(hour12, 2, ' ')
	case 'm':
		num(int(t.Month()), 2, '0')
	case 'M':
		num(t.Minute(), 2, '0')
	case 'n':
		b.WriteByte('\n')
	case 'p':
		b.WriteString(map[bool]string{true: "PM", false: "AM"}[t.Hour() >= 12])
	case 'P':
		b.WriteString(map[bool]string{true: "pm", false: "am"}[t.Hour() >= 12])
	case 'r':
		num(hour12, 2, '0')
		fmt.Fprintf(b, ":%02d:%02d ", t.Minute(), t.Second())
		strftime(b, 'p', t, utc)
	case 'R':
		fmt.Fprintf(b, "%02d:%02d", t.Hour(), t.Minute())
	case 's':
		b.WriteString(strconv.FormatInt(t.Unix(), 10))
	case 'S':
		num(t.Second(), 2, '0')
	case 't':
		b.WriteByte('\t')
	case 'T', 'X':
		fmt.Fprintf(b, "%02d:%02d:%02d", t.Hour(), t.Minute(), t.Second())
	case 'u':
		num((wday+6)%7+1, 1, '0')
	case 'U':
		num((yday+7-wday)/7, 2, '0')
	case 'V':
		_, w := t.ISOWeek()
		num(w, 2, '0')
	case 'w':
		num(wday, 1, '0')
	case 'W':
		num((yday+7-(wday+6)%7)/7, 2, '0')
	case 'y':
		num(t.Year()%100, 2, '0')
	case 'Y':
		num(t.Year(), 1, '0')
	case 'z':
		_, off := t.Zone()
		sign := byte('+')
		if off < 0 {
			sign, off = '-', -off
		}
		b.WriteByte(sign)
		num(off/3600*100+off/60%60, 4, '0')
	case 'Z':
		if utc {
			b.WriteString("GMT")
		} else {
			name, _ := t.Zone()
			b.WriteString(name)
		}
	case '%':
		b.WriteByte('%')
	default:
		b.WriteByte('%')
		b.WriteByte(c)
	}
}
