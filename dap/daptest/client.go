// Package daptest is a Debug Adapter Protocol client for tests: it talks
// to a luahost debugger over a real TCP connection, as an editor does.
package daptest

import (
	"bufio"
	"encoding/json"
	"net"
	"slices"
	"testing"
	"time"

	godap "github.com/google/go-dap"
	"github.com/stretchr/testify/require"
)

// A Client is one editor's session.
type Client struct {
	t    testing.TB
	conn net.Conn
	r    *bufio.Reader
	seq  int
	// Codec decodes what the debugger sends: the protocol's messages, and
	// custom ones when a test gives a codec that knows them (dap.NewCodec).
	Codec *godap.Codec
	// Events are the events read while waiting for responses, oldest
	// first.
	Events []godap.Message
}

// Wait bounds every read.
const Wait = 20 * time.Second

// Dial connects to the debugger at addr; the connection closes when the
// test ends.
func Dial(t testing.TB, addr string) *Client {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, Wait)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	return &Client{t: t, conn: conn, r: bufio.NewReader(conn), Codec: godap.NewCodec()}
}

// Request sends command with args (nil: none) and returns its response,
// keeping the events that came before it.
func (c *Client) Request(command string, args any) godap.Message {
	c.t.Helper()
	c.seq++
	req := map[string]any{"seq": c.seq, "type": "request", "command": command}
	if args != nil {
		req["arguments"] = args
	}
	data, err := json.Marshal(req)
	require.NoError(c.t, err)
	require.NoError(c.t, godap.WriteBaseMessage(c.conn, data))
	for {
		msg := c.read()
		if r, ok := msg.(godap.ResponseMessage); ok && r.GetResponse().RequestSeq == c.seq {
			return msg
		}
		c.Events = append(c.Events, msg)
	}
}

// Response is Request for a response of type R, which must succeed.
func Response[R godap.ResponseMessage](c *Client, command string, args any) R {
	c.t.Helper()
	msg := c.Request(command, args)
	r, ok := msg.(R)
	require.True(c.t, ok, "%s: got %#v", command, msg)
	require.True(c.t, r.GetResponse().Success, "%s: %s", command, r.GetResponse().Message)
	return r
}

func (c *Client) read() godap.Message {
	c.t.Helper()
	require.NoError(c.t, c.conn.SetReadDeadline(time.Now().Add(Wait)))
	raw, err := godap.ReadBaseMessage(c.r)
	require.NoError(c.t, err)
	msg, err := c.Codec.DecodeMessage(raw)
	require.NoError(c.t, err)
	return msg
}

// Event returns the next event of type E, from those kept or read now.
func Event[E godap.EventMessage](c *Client) E {
	c.t.Helper()
	for i, m := range c.Events {
		if e, ok := m.(E); ok {
			c.Events = slices.Delete(c.Events, i, i+1)
			return e
		}
	}
	for {
		m := c.read()
		if e, ok := m.(E); ok {
			return e
		}
		c.Events = append(c.Events, m)
	}
}

// Stopped waits for the next stopped event.
func (c *Client) Stopped() godap.StoppedEventBody {
	c.t.Helper()
	return Event[*godap.StoppedEvent](c).Body
}
