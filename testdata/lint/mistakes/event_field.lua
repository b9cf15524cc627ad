-- A field the event value does not have: naem for name.
return {
  events = {
    hit = function(self, ctx, data, ev)
      print(ev.naem, data)
    end,
  },
}
-- want: 5:16: warning: unknown ev member 'naem'; did you mean 'name'?
