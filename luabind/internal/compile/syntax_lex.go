package compile

import (
	"fmt"
	"strings"

	"github.com/luahost/luahost/luabind/internal/laux"
)

// The tokenizer of the syntax pre-check (see syntax.go). It knows Lua
// 5.1's tokens, and the operators of other languages as tokens of their
// own so that the check can name them.

// tokKind is the kind of a token.
type tokKind int

const (
	tEOF     tokKind = iota
	tName            // a name
	tKeyword         // a reserved word
	tNumber          // a numeral
	tString          // a short or long string
	tSymbol          // an operator or punctuation of Lua
	tForeign         // an operator of another language: +=, !=, //, &&...
	tBad             // a character Lua does not know
)

// token is one token and the line it starts on.
type token struct {
	kind tokKind
	text string
	line int
}

// is reports whether t is the keyword or symbol s.
func (t token) is(s string) bool {
	return (t.kind == tKeyword || t.kind == tSymbol) && t.text == s
}

// keywords are the reserved words: Lua 5.1's and goto, which
// gopher-lua's parser reserves too. They are not names.
var keywords = map[string]bool{
	"and": true, "break": true, "do": true, "else": true, "elseif": true, "end": true,
	"false": true, "for": true, "function": true, "goto": true, "if": true, "in": true,
	"local": true, "nil": true, "not": true, "or": true, "repeat": true, "return": true,
	"then": true, "true": true, "until": true, "while": true,
}

// foreignOps are the operators of other languages, longest first, with
// what to write in Lua instead.
var foreignOps = []struct{ op, hint string }{
	{"+=", "write x = x + 1"},
	{"-=", "write x = x - 1"},
	{"*=", "write x = x * 2"},
	{"/=", "write x = x / 2"},
	{"!=", "write ~="},
	{"//", "comments start with --; floor division is math.floor(a / b)"},
	{"&&", "write and"},
	{"||", "write or"},
	{"++", "write x = x + 1"},
	{"!", "write not x"},
}

// foreignHint returns the hint for a foreign operator.
func foreignHint(op string) string {
	for _, f := range foreignOps {
		if f.op == op {
			return f.hint
		}
	}
	return ""
}

// luaSymbols are Lua 5.1's operators and punctuation, longest first.
var luaSymbols = []string{
	"...", "..", "==", "~=", "<=", ">=", "::",
	"+", "-", "*", "/", "%", "^", "#", "<", ">", "=",
	"(", ")", "{", "}", "[", "]", ";", ":", ",", ".",
}

// lexError is a malformed token: its message and line.
type lexError struct {
	line int
	msg  string
}

// lexer splits a source into tokens.
type lexer struct {
	src  string
	pos  int
	line int
	// ref words errors as Lua 5.1 does (SyntaxError).
	ref bool
}

// next returns the next token, or a lexError.
func (lx *lexer) next() (token, *lexError) {
	if err := lx.skipSpace(); err != nil {
		return token{}, err
	}
	if lx.pos >= len(lx.src) {
		return token{kind: tEOF, line: lx.line}, nil
	}
	start, line := lx.pos, lx.line
	c := lx.src[lx.pos]
	switch {
	case isNameStart(c):
		for lx.pos < len(lx.src) && isNameChar(lx.src[lx.pos]) {
			lx.pos++
		}
		word := lx.src[start:lx.pos]
		if keywords[word] {
			return token{tKeyword, word, line}, nil
		}
		return token{tName, word, line}, nil
	case isDigit(c) || (c == '.' && lx.pos+1 < len(lx.src) && isDigit(lx.src[lx.pos+1])):
		return lx.number()
	case c == '"' || c == '\'':
		return lx.shortString(c)
	case c == '[' && lx.longBracket() >= 0:
		s, err := lx.longString("string")
		return token{tString, s, line}, err
	}
	for _, f := range foreignOps {
		// Lua 5.1's own words (ref) read them as the symbols they are
		// made of.
		if !lx.ref && strings.HasPrefix(lx.src[lx.pos:], f.op) && !(f.op == "!" && strings.HasPrefix(lx.src[lx.pos:], "!=")) {
			lx.pos += len(f.op)
			return token{tForeign, f.op, line}, nil
		}
	}
	for _, s := range luaSymbols {
		if strings.HasPrefix(lx.src[lx.pos:], s) {
			lx.pos += len(s)
			return token{tSymbol, s, line}, nil
		}
	}
	lx.pos++
	// The byte itself: string(c) would be its UTF-8 encoding as a rune.
	return token{tBad, lx.src[lx.pos-1 : lx.pos], line}, nil
}

// skipSpace skips blanks, newlines and comments.
func (lx *lexer) skipSpace() *lexError {
	for lx.pos < len(lx.src) {
		switch c := lx.src[lx.pos]; {
		case c == '\n':
			lx.line++
			lx.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			lx.pos++
		case strings.HasPrefix(lx.src[lx.pos:], "--"):
			lx.pos += 2
			if lx.pos < len(lx.src) && lx.src[lx.pos] == '[' && lx.longBracket() >= 0 {
				if _, err := lx.longString("comment"); err != nil {
					return err
				}
				continue
			}
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
		default:
			return nil
		}
	}
	return nil
}

// longBracket returns the level of the long bracket "[==[" at pos, or -1.
func (lx *lexer) longBracket() int {
	i := lx.pos + 1
	for i < len(lx.src) && lx.src[i] == '=' {
		i++
	}
	if i < len(lx.src) && lx.src[i] == '[' {
		return i - lx.pos - 1
	}
	return -1
}

// longString reads a long string or comment starting at pos.
func (lx *lexer) longString(what string) (string, *lexError) {
	level, line, start := lx.longBracket(), lx.line, lx.pos
	closer := "]" + strings.Repeat("=", level) + "]"
	lx.pos += level + 2
	end := strings.Index(lx.src[lx.pos:], closer)
	if level == 0 {
		// Lua 5.1 refuses [[ inside a [[...]] string or comment.
		if nest := strings.Index(lx.src[lx.pos:], "[["); nest >= 0 && (end < 0 || nest < end) {
			lx.line += strings.Count(lx.src[lx.pos:lx.pos+nest], "\n")
			return "", &lexError{lx.line, "nesting of [[...]] is deprecated near '['"}
		}
	}
	if end < 0 {
		lx.line += strings.Count(lx.src[lx.pos:], "\n")
		lx.pos = len(lx.src)
		if lx.ref {
			return "", &lexError{lx.line, "unfinished long " + what + " near '<eof>'"}
		}
		return "", &lexError{lx.line, fmt.Sprintf("unfinished long %s (starting at line %d) near <eof>", what, line)}
	}
	lx.line += strings.Count(lx.src[lx.pos:lx.pos+end], "\n")
	lx.pos += end + len(closer)
	return lx.src[start:lx.pos], nil
}

// shortString reads a string in quote q starting at pos.
func (lx *lexer) shortString(q byte) (token, *lexError) {
	start, line := lx.pos, lx.line
	lx.pos++
	for lx.pos < len(lx.src) {
		switch c := lx.src[lx.pos]; c {
		case q:
			lx.pos++
			return token{tString, lx.src[start:lx.pos], line}, nil
		case '\n':
			// At the line the string was cut, as Lua 5.1 reports it
			// (an escaped line end before it counts).
			return token{}, &lexError{lx.line, "unfinished string near '" + lx.src[start:lx.pos] + "'"}
		case '\\':
			if nl := lx.pos + 1; nl < len(lx.src) && (lx.src[nl] == '\n' || lx.src[nl] == '\r') {
				// An escaped line end is one, of one character or of
				// two different ones ("\r\n", "\n\r"), as Lua 5.1 reads.
				lx.line++
				lx.pos = nl + 1
				if lx.pos < len(lx.src) && (lx.src[lx.pos] == '\n' || lx.src[lx.pos] == '\r') && lx.src[lx.pos] != lx.src[nl] {
					lx.pos++
				}
				continue
			}
			if d := lx.pos + 1; d < len(lx.src) && isDigit(lx.src[d]) {
				// A decimal escape reads up to three digits; past 255 it
				// is an error in Lua 5.1 (gopher-lua kept the low byte).
				end, code := d, 0
				for end < d+3 && end < len(lx.src) && isDigit(lx.src[end]) {
					code = code*10 + int(lx.src[end]-'0')
					end++
				}
				if code > 255 {
					return token{}, &lexError{lx.line, "escape sequence too large near '" + lx.src[start:lx.pos] + "'"}
				}
				lx.pos = end
				continue
			}
			lx.pos += 2
		default:
			lx.pos++
		}
	}
	if lx.ref {
		return token{}, &lexError{lx.line, "unfinished string near '<eof>'"}
	}
	return token{}, &lexError{lx.line, "unfinished string near <eof>"}
}

// number reads a numeral as Lua 5.1's lexer does: digits and dots, an
// optional exponent sign after an e, then any letters, digits and
// underscores stuck to it; strtod must read all of it, or it is
// malformed.
func (lx *lexer) number() (token, *lexError) {
	start, line := lx.pos, lx.line
	for lx.pos < len(lx.src) && (isDigit(lx.src[lx.pos]) || lx.src[lx.pos] == '.') {
		lx.pos++
	}
	if lx.pos < len(lx.src) && (lx.src[lx.pos]|0x20) == 'e' {
		lx.pos++
		if lx.pos < len(lx.src) && (lx.src[lx.pos] == '+' || lx.src[lx.pos] == '-') {
			lx.pos++
		}
	}
	for lx.pos < len(lx.src) && isNameChar(lx.src[lx.pos]) {
		lx.pos++
	}
	text := lx.src[start:lx.pos]
	if !laux.ReadsAsNumber(text) {
		return token{}, &lexError{line, "malformed number near '" + text + "'"}
	}
	return token{tNumber, text, line}, nil
}

func isNameStart(c byte) bool { return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
func isNameChar(c byte) bool  { return isNameStart(c) || isDigit(c) }
func isDigit(c byte) bool     { return '0' <= c && c <= '9' }

// IsName reports whether name is a Lua name that a script can spell: an
// identifier that is not a reserved word (goto included, which
// gopher-lua reserves).
func IsName(name string) bool {
	if name == "" || !isNameStart(name[0]) || keywords[name] {
		return false
	}
	for i := 1; i < len(name); i++ {
		if !isNameChar(name[i]) {
			return false
		}
	}
	return true
}
