package lstring

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// comparePatterns cover every feature of Lua patterns.
var comparePatterns = []string{
	// single characters and quantifiers
	"a", "a*", "a+", "a-", "a?", "b", "ab", "aa*b", "a-b", "a?b", "x*",
	".", ".*", ".-", ".+", ".?", "a.-b", "a.*b", "a**", "a***", "*a", "a+?",
	// classes and their complements
	"%a+", "%c", "%d+", "%l+", "%p", "%s*", "%s+", "%u+", "%w+", "%x+", "%z",
	"%A+", "%C", "%D+", "%L+", "%P+", "%S+", "%U", "%W", "%X+", "%Z+",
	"%.", "%%", "%]", "%-", "%q", "%a%d",
	// sets
	"[abc]+", "[^abc]+", "[a-f]+", "[%d%.]+", "[%w_]+", "[]]", "[^]]+",
	"[a-]", "[-a]", "[%a-z]", "[a-%z]", "[a--]", "[a--b]", "[a-b-c]", "[.]",
	"[%]]", "[a%-z]", "[^%a%d]", "[%s%p]+", "[0-9a-fA-F]+", "[^%s]+", "[[]",
	"[%^]", "[a^]", "[\x00-\x1f]",
	// anchors
	"^a", "^a*", "a$", "$", "^$", "^", "a$b", "^^", "$$", "^(%d+)%.(%d+)$",
	"^%s*(.-)%s*$", "a-$", ".-$",
	// captures
	"(a)", "(a)(b)", "((a)(b))", "()a()", "()", "(a*(.)%w(%s*))",
	"(%w+)%s*=%s*(%w+)", "(h)(e)(l)(l)(o)", "(a?)b", "(.-)b", "(a)*",
	"()a%1",
	// back-references
	"(.)%1", "(%w)%1", "(a)(b)%2%1", "(%w+) %1",
	// balance
	"%b()", "%b''", "%bab", "%b)(", "%b()+",
}

// compareSubjects are matched against each of comparePatterns.
var compareSubjects = []string{
	"", "a", "abc", "aaa", "b", "aab", "hello world", "  trim me  ",
	"key = value, k2=v2", "(foo(bar))baz", "a.b-c]d", "x=1.25 y=30",
	"\x00\x01zz\xff", "'q' 'r'", "aabbaab", "12.34.56", "abab", "a$b", "^^x",
	"THE (quick) fox", "%]-q",
}

// compareCases are chunks whose results must be the same with gopher-lua's
// functions and with this package's: argument handling, replacement kinds,
// format, rep and errors.
var compareCases = []string{
	// find: init and plain
	`return string.find("hello", "l")`,
	`return string.find("hello", "l", 4)`,
	`return string.find("hello", "l", -1)`,
	`return string.find("hello", "l", -2)`,
	`return string.find("hello", "l", 0)`,
	`return string.find("hello", "l", 100)`,
	`return string.find("hello", "l", -100)`,
	`return string.find("hello", "", 3)`,
	`return string.find("hello", "", 100)`,
	`return string.find("", "")`,
	`return string.find("a.b", ".", 1, true)`,
	`return string.find("a.b", ".", 3, true)`,
	`return string.find("a.b", "%.", 1, false)`,
	`return string.find("a.b", ".", 1, true, "extra")`,
	`return string.find("a.b", ".", 1, nil)`,
	`return string.find("abc", "b", nil)`,
	`return string.find("abc", "c", 3, true)`,
	`return string.find("abc", "abcd", 1, true)`,
	`return string.find(12345, 3)`,
	`return string.find("xab", "^a", 2)`,
	`return string.find("xab", "^a", 1)`,
	`return string.find("abc", "c$", 3)`,
	`return string.find("hello world", "(o)(r)")`,
	`return string.find("hello", "()ll()")`,
	`return ("hello"):find("l+")`,
	// match: init
	`return string.match("hello", "l+", 1)`,
	`return string.match("hello", "l+", 5)`,
	`return string.match("hello", "l+", -2)`,
	`return string.match("hello", "l+", -100)`,
	`return string.match("hello", ".", 0)`,
	`return string.match("hello", ".", 6)`,
	`return string.match("hello", "", 6)`,
	`return string.match("hello", "", 7)`,
	`return select("#", string.match("hello", "x"))`,
	`return string.match("key=val", "(%w+)=(%w+)")`,
	`return string.match("  x  ", "^%s*(.-)%s*$")`,
	`return string.match("2024-01-31", "(%d+)-(%d+)-(%d+)")`,
	`return string.match("hello", "()ll()")`,
	`return ("abc"):match("^(a)")`,
	// gmatch
	`return G("one two  three", "%a+")`,
	`return G("k1=v1, k2=v2", "(%w+)=(%w+)")`,
	`return G("abc", "")`,
	`return G("abc", "^.")`,
	`return G("aaa", "a*")`,
	`return G("hello", "()l")`,
	`return G("", "x*")`,
	`local n = 0 for w in string.gmatch("a b c", "%a") do n = n + 1 end return n`,
	`local t = {} for k, v in string.gfind("a=1,b=2", "(%w)=(%w)") do t[#t+1] = k .. v end return table.concat(t)`,
	// gsub: string replacements
	`return string.gsub("hello world", "o", "0")`,
	`return string.gsub("hello world", "o", "0", 1)`,
	`return string.gsub("hello world", "o", "0", 5)`,
	`return string.gsub("hello world", "(o)", "[%1%1]")`,
	`return string.gsub("hello world", "%w+", "%0 %0")`,
	`return string.gsub("hello", "", "-")`,
	`return string.gsub("abc", "%w", "%%")`,
	`return string.gsub("abc", "%w", "%x")`,
	`return string.gsub("abc", "%w", "a%")`,
	`return string.gsub("abc", "%w", "%%%")`,
	`return string.gsub("abc", "%w", "%%1")`,
	`return string.gsub("abc", "%w", "%1%0")`,
	`return string.gsub("abc", "(%w)", "%2")`,
	`return string.gsub("abc", "%w", "%9")`,
	`return string.gsub("abc", "()b", "%1")`,
	`return string.gsub("abc", "^a", "x")`,
	`return string.gsub("abc", "^b", "x")`,
	`return string.gsub("abc", "c$", "x")`,
	`return string.gsub("a,b,,c", ",", ";")`,
	`return string.gsub("aaa", "a", "")`,
	`return string.gsub("a b  c", "%s+", "")`,
	`return string.gsub(123, "2", "x")`,
	`return string.gsub(123, "x", "y")`,
	`return string.gsub("abc", "b", 5)`,
	`return string.gsub("abc", "b", "x", 1.9)`,
	`return string.gsub("abc", "x*", "-")`,
	`return string.gsub("  trim  ", "^%s*(.-)%s*$", "%1")`,
	// gsub: table replacements
	`return string.gsub("$a $b $c", "%$(%w)", {a = "1", b = 2})`,
	`return string.gsub("$a $b $c", "%$%w", {["$a"] = "A"})`,
	`return string.gsub("abc", "%w", {a = true, b = {}, c = false})`,
	`return string.gsub("abc", "()b", {[2] = "two"})`,
	`return string.gsub("abc", "%w", setmetatable({}, {__index = function(t, k) return k:upper() end}))`,
	// gsub: function replacements
	`return string.gsub("hello world", "%w+", function(w) return w:upper() end)`,
	`return string.gsub("hello world", "(%w)(%w*)", function(a, b) return a:upper() .. b end)`,
	`return string.gsub("abc", "%w", function(c) if c == "b" then return nil end return c .. c end)`,
	`return string.gsub("abc", "%w", function(c) return false end)`,
	`return string.gsub("abc", "%w", function(c) return 7 end)`,
	`return string.gsub("abc", "%w", function(c) return {} end)`,
	`return string.gsub("abc", "()(%w)", function(p, c) return p .. c end)`,
	`local n = 0 local s = string.gsub("aaa", "a", function() n = n + 1 end) return s, n`,
	`return string.gsub("abc", "%w", function(c) error("boom " .. c) end)`,
	// rep
	`return string.rep("ab", 3)`,
	`return string.rep("", 5)`,
	`return string.rep("x", 0)`,
	`return string.rep("x", -1)`,
	`return string.rep("ab", 2.7)`,
	`return string.rep(12, 2)`,
	`return string.rep("x", 1e300)`,
	`return string.rep("x", -1e300)`,
	`return ("ab"):rep(2)`,
	// format
	`return string.format("%d %5d %-5d| %05d %+d", 1, 2, 3, 4, 5)`,
	`return string.format("%5.2f %e %g %.3g %E %G", 3.14159, 1234.5, 0.0001, 2/3, 1e20, 1e-20)`,
	`return string.format("%x %X %o %#x %c", 255, 255, 8, 255, 65)`,
	`return string.format("%s %10s %-10s| %.2s", "a", "b", "c", "defg")`,
	`return string.format("%%d %d%%", 5)`,
	`return string.format("%d", "10")`,
	`return string.format("%5.1s|", "abc")`,
	`return string.format("%d", 1, 2)`,
	`return string.format("no directives", 1)`,
	`return string.format("%99d|", 7)`,
	`return string.format("%.99f", 1)`,
	`return string.format("%-+ #05d", 3)`,
	`return string.format(12)`,
	`return ("%d-%d"):format(1, 2)`,
	// errors of arguments
	`return string.find(nil, "a")`,
	`return string.find("a")`,
	`return string.find("abc", "b", "2")`,
	`return string.find("abc", {})`,
	`return string.match()`,
	`return string.match("a", "a", "x")`,
	`return string.gmatch(nil, "a")`,
	`return string.gsub("abc", "b")`,
	`return string.gsub("abc", "b", true)`,
	`return string.gsub("abc", "b", "x", "1")`,
	`return string.rep("x")`,
	`return string.rep("x", "3")`,
	`return string.rep({}, 3)`,
	`return string.format()`,
	`return string.format({})`,
	// errors of patterns
	`return string.find("abc", "%0")`,
	`return string.find("abc", "a%0")`,
	`return string.find("abc", ")")`,
	`return string.find("abc", "ab)")`,
	`return string.find("abc", "^)")`,
	`return string.find("abc", "(a")`,
	`return string.find("abc", "(a(b)")`,
	`return string.find("abc", "((a)")`,
	`return string.find("abc", "[a")`,
	`return string.find("abc", "[a%")`,
	`return string.find("abc", "[")`,
	`return string.find("abc", "[^")`,
	`return string.find("abc", "[]")`,
	`return string.find("abc", "[^]")`,
	`return string.find("abc", "a[")`,
	`return string.find("abc", "(a)%2")`,
	`return string.find("abc", "%1")`,
	`return string.find("abc", "x%1")`,
	`return string.find("abc", "%1(a)")`,
	`return string.match("abc", "(a")`,
	`return string.gsub("abc", ")", "x")`,
	`return string.gsub("abc", "(%w)", "%2")`,
	`return string.gsub("", "(%w)", "%2")`,
}

// TestCompareCases runs each of compareCases with this package's string
// functions and in reference Lua 5.1, and compares (errors as errors: their
// wording is pinned by TestDifferences).
func TestCompareCases(t *testing.T) {
	require.GreaterOrEqual(t, len(compareCases), 80)
	var script strings.Builder
	for _, code := range compareCases {
		fmt.Fprintf(&script, "C(%s, function() %s end)\n", luaQuote(code), code)
	}
	compareWithReference(t, script.String())
}

// TestDifferences pins the deliberate differences from gopher-lua listed in
// the package documentation: the expected result is this package's, and
// gopher-lua's must differ from it.
func TestDifferences(t *testing.T) {
	tests := []struct {
		name, code string
		want       outcome
	}{
		{"pattern ending with %", `return string.find("abc%", "c%")`,
			outcome{Err: "<string>:1: malformed pattern (ends with '%')"}},
		{"%b without arguments", `return string.find("abc", "%b")`,
			outcome{Err: "<string>:1: unbalanced pattern"}},
		{"%b with one argument", `return string.find("a(b)", "a%b(")`,
			outcome{Err: "<string>:1: unbalanced pattern"}},
		{"%f without a set", `return string.find("fa", "%fa")`,
			outcome{Err: "<string>:1: missing '[' after '%f' in pattern"}},
		{"frontier", `return string.find("THE (quick) fox", "%f[%a]%a+", 2)`,
			outcome{Values: []string{"number:6", "number:10"}}},
		{"frontier at both ends", `return string.gsub("the fox", "%f[%w]%w+%f[%W]", "<%0>")`,
			outcome{Values: []string{`"<the> <fox>"`, "number:2"}}},
		{"frontier at the start of the subject", `return string.find("abc", "%f[a]")`,
			outcome{Values: []string{"number:1", "number:0"}}},
		{"frontier at the end of the subject", `return string.find("abc", "%f[%z]")`,
			outcome{Values: []string{"number:4", "number:3"}}},
		{"back-reference to an open capture", `return string.find("aa", "((a)%1)")`,
			outcome{Err: "<string>:1: invalid capture index"}},
		{"too many captures", `return string.find("a", string.rep("()", 33))`,
			outcome{Err: "<string>:1: too many captures"}},
		{"too many nested quantifiers", `return string.find(string.rep("a", 300), string.rep("a?", 201))`,
			outcome{Err: "<string>:1: pattern too complex"}},
		{"gsub with n = 0", `return string.gsub("abc", "%w", "x", 0)`,
			outcome{Values: []string{`"abc"`, "number:0"}}},
		{"gsub with n < 0", `return string.gsub("abc", "%w", "x", -1)`,
			outcome{Values: []string{`"abc"`, "number:0"}}},
		{"gmatch returns the iterator alone", `return select("#", string.gmatch("a", "a"))`,
			outcome{Values: []string{"number:1"}}},
		{"gmatch iterator called directly", `local f = string.gmatch("ab", "%a") return f(), f(), f(), f()`,
			outcome{Values: []string{`"a"`, `"b"`, "nil:nil"}}},
		{"plain find past the end", `return string.find("abc", "b", 10, true)`,
			outcome{Values: []string{"nil:nil"}}},
		{"format of a table as a number", `return string.format("%d", {})`,
			outcome{Err: "<string>:1: bad argument #2 to format (number expected, got table)"}},
		{"format with a verb of Go's fmt", `return string.format("%#v", print)`,
			outcome{Err: "<string>:1: invalid option '%v' to 'format'"}},
		{"format of a string with %q", `return string.format("%q", "a\nb\"c\\\0d")`,
			outcome{Values: []string{`"\"a\\\nb\\\"c\\\\\\000d\""`}}},
		{"format of a missing argument", `return string.format("%d %d", 1)`,
			outcome{Err: "<string>:1: bad argument #3 to format (no value)"}},
		{"format of a string as a number", `return string.format("%x", "hi")`,
			outcome{Err: "<string>:1: bad argument #2 to format (number expected, got string)"}},
		{"format of a table as a string", `return string.format("%s", {})`,
			outcome{Err: "<string>:1: bad argument #2 to format (string expected, got table)"}},
		{"format with an argument index", `return string.format("%[2]d %[1]d", 1, 2)`,
			outcome{Err: "<string>:1: invalid option '%[' to 'format'"}},
		{"format with repeated flags", `return string.format("%------5d", 1)`,
			outcome{Err: "<string>:1: invalid format (repeated flags)"}},
		{"format with a long width", `return string.format("%100d", 1)`,
			outcome{Err: "<string>:1: invalid format (width or precision too long)"}},
		{"format with a long precision", `return string.format("%.100f", 1)`,
			outcome{Err: "<string>:1: invalid format (width or precision too long)"}},
	}
	orig := newOriginal(t)
	mine := newBounded(t, Limits{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, runChunk(mine, tt.code))
			assert.NotEqual(t, tt.want, runChunk(orig, tt.code), "gopher-lua agrees now")
		})
	}
}

// TestLongSubject checks a quantifier over more bytes than gopher-lua's
// recursion allows ("pattern/input too complex").
func TestLongSubject(t *testing.T) {
	L := newBounded(t, Limits{})
	got := runChunk(L, `local s = string.rep("a", 1100000) .. "b"
		local i, j = string.find(s, "a*b")
		return i, j, string.match(s, "(a-)b"):len(), (string.gsub(s, "a+", ""))`)
	assert.Equal(t, outcome{Values: []string{"number:1", "number:1100001", "number:1100000", `"b"`}}, got)
}
