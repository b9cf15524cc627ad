package compile

import "fmt"

// The syntax pre-check: gopher-lua's parser says only "syntax error near
// 'x'". When it refuses a chunk, this recursive-descent reading of Lua
// 5.1's grammar (it builds nothing) finds the first error and words it
// like reference Lua: what was expected, for an unclosed block its opener
// and line ("'end' expected (to close 'if' at line 3) near <eof>"), and
// for an operator of another language what to write instead ("'+=' is
// not Lua: write x = x + 1").
//
// Every chunk goes through the check before gopher-lua parses it
// (Compile), for the nesting limits: gopher-lua's compiler recurses
// once per node of the chunk's tree, so a chunk that nests a few hundred
// thousand levels deep (a 16 MiB script, or a 1 MiB loadstring, of
// "f()()()..." or "((((...") took seconds and gigabytes outside any
// budget, or overflowed the Go stack and killed the process. Blocks and
// sub-expressions nest at most maxSyntaxLevels deep, as in Lua 5.1; the
// chains Lua 5.1 reads in a loop but gopher-lua nests (operators of one
// expression, the fields, indexes and calls after a name, elseif
// branches) count too, up to maxSyntaxDepth along any path of the tree.

// Nesting limits of a chunk. maxSyntaxLevels is Lua 5.1's LUAI_MAXCCALLS:
// nested blocks, parentheses, table constructors, unary operators and
// the right-associative .. and ^ ("chunk has too many syntax levels").
// maxSyntaxDepth bounds the depth of gopher-lua's tree, levels and chains
// together: past it, compiling needs a Go stack of megabytes.
const (
	maxSyntaxLevels = 200
	maxSyntaxDepth  = 1000
)

// SyntaxError is the first syntax error of a chunk: its line and message
// (in reference Lua's words, without the chunk's name), and the line and
// message Lua 5.1 itself gives, which load and loadstring return: the
// same, except that the messages scripts get write <eof> and <name>
// unquoted, name an operator of another language with what to write
// instead, the bracket an expression cut off by the end of the source
// left open, and the line an unfinished long string starts at.
type SyntaxError struct {
	Line int
	Msg  string

	RefLine int
	RefMsg  string
}

// Error returns "line N: message".
func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// CheckSyntax returns the first syntax error of src, or nil when it finds
// none.
func CheckSyntax(src string) *SyntaxError {
	se := checkSyntax(src, false)
	if se != nil {
		se.RefLine, se.RefMsg = se.Line, se.Msg
		if ref := checkSyntax(src, true); ref != nil {
			se.RefLine, se.RefMsg = ref.Line, ref.Msg
		}
	}
	return se
}

// checkSyntax returns the first syntax error of src, worded as Lua 5.1
// words it when ref is set.
func checkSyntax(src string, ref bool) (err *SyntaxError) {
	p := &parser{lx: lexer{src: src, line: 1, ref: ref}, vararg: []bool{true}}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*SyntaxError)
			if !ok {
				panic(r)
			}
			err = se
		}
	}()
	p.advance()
	p.block(nil)
	if p.tok.kind != tEOF {
		p.fail(p.quoted("<eof>") + " expected " + p.near())
	}
	return nil
}

// parser reads tokens from its lexer; tok is the current one, open the
// constructs waiting for their closers, innermost last.
type parser struct {
	lx  lexer
	tok token
	// last is the line of the token before tok.
	last int
	open []opener
	// levels counts the nesting Lua 5.1 counts; depth the depth of
	// gopher-lua's tree at the current token.
	levels, depth int
	// vararg tells, for each function being read (the chunk first,
	// innermost last), whether its parameters end with "...".
	vararg []bool
}

// opener is a construct waiting for its closing token: "if" at line 3
// waits for "end".
type opener struct {
	what, closer string
	line         int
}

// near renders the current token as messages quote it: <eof> is quoted
// in Lua 5.1's own words only.
func (p *parser) near() string {
	if p.tok.kind == tEOF {
		return "near " + p.quoted("<eof>")
	}
	return "near '" + p.tok.text + "'"
}

// quoted returns the placeholder s (<eof>, <name>) as the message being
// made writes it.
func (p *parser) quoted(s string) string {
	if p.lx.ref {
		return "'" + s + "'"
	}
	return s
}

// fail stops the check with msg at the current token's line.
func (p *parser) fail(msg string) {
	p.failAt(p.tok.line, msg)
}

func (p *parser) failAt(line int, msg string) {
	panic(&SyntaxError{Line: line, Msg: msg})
}

// enter enters a nested level (a block, a sub-expression) and returns
// what leave restores.
func (p *parser) enter() (levels, depth int) {
	levels, depth = p.levels, p.depth
	p.levels++
	if p.levels > maxSyntaxLevels {
		p.fail("chunk has too many syntax levels")
	}
	p.deeper()
	return levels, depth
}

// leave leaves what enter entered, and the chains inside it.
func (p *parser) leave(levels, depth int) { p.levels, p.depth = levels, depth }

// deeper counts one more node of a chain that gopher-lua nests.
func (p *parser) deeper() {
	p.depth++
	if p.depth > maxSyntaxDepth {
		p.fail(fmt.Sprintf("chunk has too many syntax levels (more than %d nested operators, calls, indexes, blocks or elseif branches)", maxSyntaxDepth))
	}
}

// advance moves to the next token. A foreign operator or a lexical error
// stops the check at once: neither is ever valid.
func (p *parser) advance() {
	t, err := p.lx.next()
	if err != nil {
		p.failAt(err.line, err.msg)
	}
	if t.kind == tForeign {
		p.failAt(t.line, fmt.Sprintf("'%s' is not Lua: %s", t.text, foreignHint(t.text)))
	}
	p.last = p.tok.line
	p.tok = t
}

// accept advances past s when it is the current token.
func (p *parser) accept(s string) bool {
	if p.tok.is(s) {
		p.advance()
		return true
	}
	return false
}

// expect advances past s or fails with "'s' expected near ...".
func (p *parser) expect(s string) {
	if !p.accept(s) {
		p.fail("'" + s + "' expected " + p.near())
	}
}

// opening returns the opener of a construct that starts at line and
// waits for closer.
func (p *parser) opening(what, closer string, line int) opener {
	o := opener{what, closer, line}
	p.open = append(p.open, o)
	return o
}

// close advances past o's closer or fails naming o.
func (p *parser) close(o opener) {
	if p.accept(o.closer) {
		p.open = p.open[:len(p.open)-1]
		return
	}
	p.unclosed(o)
}

// unclosed fails: o's closer was expected at the current token.
func (p *parser) unclosed(o opener) {
	if o.line == p.tok.line {
		p.fail("'" + o.closer + "' expected " + p.near())
	}
	p.fail(fmt.Sprintf("'%s' expected (to close '%s' at line %d) %s", o.closer, o.what, o.line, p.near()))
}

// name advances past a name or fails.
func (p *parser) name() {
	if p.tok.kind != tName {
		p.fail(p.quoted("<name>") + " expected " + p.near())
	}
	p.advance()
}

// blockEnds reports whether the current token ends a block.
func (p *parser) blockEnds() bool {
	if p.tok.kind == tEOF {
		return true
	}
	return p.tok.is("end") || p.tok.is("else") || p.tok.is("elseif") || p.tok.is("until")
}

// block reads statements until a token that ends a block. in is the
// construct the block belongs to (nil for the chunk): a closing bracket
// or a comma where a statement should start means its closer is
// missing.
func (p *parser) block(in *opener) {
	defer p.leave(p.enter())
	for !p.blockEnds() {
		if p.tok.is("return") {
			p.advance()
			if !p.blockEnds() && !p.tok.is(";") {
				p.exprList()
			}
			p.accept(";")
			return
		}
		if in != nil && (p.tok.is(",") || p.tok.is(")") || p.tok.is("}") || p.tok.is("]")) {
			p.unclosed(*in)
		}
		last := p.tok.is("break")
		p.statement()
		// A statement may end with one ';', as in Lua 5.1: a ';' of
		// its own (";;") is no statement.
		p.accept(";")
		if last {
			// break, as return, ends its block in Lua 5.1.
			return
		}
	}
}

// statement reads one statement.
func (p *parser) statement() {
	line := p.tok.line
	switch {
	case p.accept("break"):
		if !p.inLoop() {
			p.fail("no loop to break " + p.near())
		}
	case p.accept("if"):
		// The elseif branches nest in gopher-lua's tree.
		defer p.leave(p.levels, p.depth)
		o := p.opening("if", "end", line)
		p.expr()
		p.expect("then")
		p.block(&o)
		for p.tok.is("elseif") {
			p.deeper()
			p.advance()
			p.expr()
			p.expect("then")
			p.block(&o)
		}
		if p.accept("else") {
			p.block(&o)
		}
		p.close(o)
	case p.accept("while"):
		o := p.opening("while", "end", line)
		p.expr()
		p.expect("do")
		p.block(&o)
		p.close(o)
	case p.accept("do"):
		o := p.opening("do", "end", line)
		p.block(&o)
		p.close(o)
	case p.accept("for"):
		p.forStatement(line)
	case p.accept("repeat"):
		o := p.opening("repeat", "until", line)
		p.block(&o)
		p.close(o)
		p.expr()
	case p.accept("function"):
		p.name()
		for p.accept(".") {
			p.name()
		}
		if p.accept(":") {
			p.name()
		}
		p.funcBody(line)
	case p.accept("local"):
		if p.accept("function") {
			p.name()
			p.funcBody(line)
			return
		}
		p.name()
		for p.accept(",") {
			p.name()
		}
		if p.accept("=") {
			p.exprList()
		}
	case p.accept("goto"):
		p.name()
	case p.accept("::"):
		p.name()
		p.expect("::")
	default:
		p.exprStatement()
	}
}

// forStatement reads a numeric or generic for after "for".
func (p *parser) forStatement(line int) {
	o := p.opening("for", "end", line)
	p.name()
	switch {
	case p.accept("="):
		p.expr()
		p.expect(",")
		p.expr()
		if p.accept(",") {
			p.expr()
		}
	case p.tok.is(","), p.tok.is("in"):
		for p.accept(",") {
			p.name()
		}
		p.expect("in")
		p.exprList()
	default:
		p.fail("'=' or 'in' expected " + p.near())
	}
	p.expect("do")
	p.block(&o)
	p.close(o)
}

// exprStatement reads a call or an assignment, as Lua 5.1 does: a call
// ends the statement (f() = 1 then fails at "="), anything else must be
// a list of variables followed by "=".
func (p *parser) exprStatement() {
	kind := p.suffixedExpr()
	if kind == call {
		return
	}
	for {
		if kind != variable {
			p.fail("syntax error " + p.near())
		}
		if !p.accept(",") {
			break
		}
		kind = p.suffixedExpr()
	}
	p.expect("=")
	p.exprList()
}

// inLoop reports whether a break here is inside a loop of the function
// being read.
func (p *parser) inLoop() bool {
	for i := len(p.open) - 1; i >= 0; i-- {
		switch p.open[i].what {
		case "while", "for", "repeat":
			return true
		case "function":
			return false
		}
	}
	return false
}

// funcBody reads "(params) block end" of a function that starts at line.
func (p *parser) funcBody(line int) {
	o := p.opening("function", "end", line)
	open := p.opening("(", ")", p.tok.line)
	p.expect("(")
	vararg := false
	if !p.tok.is(")") {
		for {
			if p.accept("...") {
				vararg = true
				break
			}
			if p.tok.kind != tName {
				p.fail("<name> or '...' expected " + p.near())
			}
			p.advance()
			if !p.accept(",") {
				break
			}
		}
	}
	p.close(open)
	p.vararg = append(p.vararg, vararg)
	p.block(&o)
	p.vararg = p.vararg[:len(p.vararg)-1]
	p.close(o)
}

// exprList reads expressions separated by commas.
func (p *parser) exprList() {
	p.expr()
	for p.accept(",") {
		p.expr()
	}
}

// binaryOps are Lua 5.1's binary operators.
var binaryOps = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "%": true, "^": true, "..": true,
	"==": true, "~=": true, "<": true, "<=": true, ">": true, ">=": true, "and": true, "or": true,
}

// expr reads an expression; precedence does not matter to the check.
// Each operator nests one more node; a unary operator and the
// right-associative .. and ^ are a level each, as Lua 5.1 reads them.
func (p *parser) expr() {
	defer p.leave(p.enter())
	for {
		for p.tok.is("not") || p.tok.is("-") || p.tok.is("#") {
			p.enter()
			p.advance()
		}
		p.simpleExpr()
		if !((p.tok.kind == tSymbol || p.tok.kind == tKeyword) && binaryOps[p.tok.text]) {
			return
		}
		if p.tok.is("..") || p.tok.is("^") {
			p.enter()
		} else {
			p.deeper()
		}
		p.advance()
	}
}

// simpleExpr reads a literal, a constructor, a function or a suffixed
// expression.
func (p *parser) simpleExpr() {
	line := p.tok.line
	switch {
	case p.tok.kind == tNumber, p.tok.kind == tString:
		p.advance()
	case p.tok.is("..."):
		if !p.vararg[len(p.vararg)-1] {
			p.fail("cannot use '...' outside a vararg function " + p.near())
		}
		p.advance()
	case p.accept("nil"), p.accept("true"), p.accept("false"):
	case p.tok.is("{"):
		p.constructor()
	case p.accept("function"):
		p.funcBody(line)
	default:
		p.suffixedExpr()
	}
}

// exprKind is what a suffixed expression is: a variable (a name or an
// index) can be assigned to, a call can stand as a statement.
type exprKind int

const (
	value exprKind = iota
	variable
	call
)

// primaryExpr reads a name or a parenthesized expression.
func (p *parser) primaryExpr() exprKind {
	switch {
	case p.tok.kind == tName:
		p.advance()
		return variable
	case p.tok.is("("):
		o := p.opening("(", ")", p.tok.line)
		p.advance()
		p.expr()
		p.close(o)
	case p.tok.kind == tEOF && len(p.open) > 0 && !p.lx.ref:
		p.unclosed(p.open[len(p.open)-1])
	default:
		p.fail("unexpected symbol " + p.near())
	}
	return value
}

// suffixedExpr reads a primary expression and its fields, indexes,
// method calls and calls, and returns what the whole is.
func (p *parser) suffixedExpr() exprKind {
	defer p.leave(p.levels, p.depth)
	kind := p.primaryExpr()
	for {
		p.deeper()
		switch {
		case p.accept("."):
			p.name()
			kind = variable
		case p.tok.is("["):
			o := p.opening("[", "]", p.tok.line)
			p.advance()
			p.expr()
			p.close(o)
			kind = variable
		case p.accept(":"):
			p.name()
			p.callArgs()
			kind = call
		case p.tok.is("("), p.tok.is("{"), p.tok.kind == tString:
			p.callArgs()
			kind = call
		default:
			return kind
		}
	}
}

// callArgs reads the arguments of a call: (list), a table or a string.
func (p *parser) callArgs() {
	switch {
	case p.tok.kind == tString:
		p.advance()
	case p.tok.is("{"):
		p.constructor()
	case p.tok.is("("):
		if p.tok.line != p.last {
			// Lua 5.1 will not guess whether "f\n(g)()" is one
			// statement or two.
			p.fail("ambiguous syntax (function call x new statement) " + p.near())
		}
		o := p.opening("(", ")", p.tok.line)
		p.advance()
		if !p.tok.is(")") {
			p.exprList()
		}
		p.close(o)
	default:
		p.fail("function arguments expected " + p.near())
	}
}

// constructor reads a table constructor.
func (p *parser) constructor() {
	o := p.opening("{", "}", p.tok.line)
	p.expect("{")
	for !p.tok.is("}") {
		switch {
		case p.tok.is("["):
			b := p.opening("[", "]", p.tok.line)
			p.advance()
			p.expr()
			p.close(b)
			p.expect("=")
			p.expr()
		case p.tok.kind == tName:
			// name = value, or an expression starting with a name.
			save := *p
			p.advance()
			if p.accept("=") {
				p.expr()
			} else {
				*p = save
				p.expr()
			}
		default:
			p.expr()
		}
		if !p.accept(",") && !p.accept(";") {
			break
		}
	}
	p.close(o)
}
