// Package nats runs one zone of a world whose zones are separate
// processes sharing a NATS server with JetStream; the zones themselves,
// their [zones.Layout] and the in-process [zones.World] are in package
// zones, which does not link NATS.
//
// A [Net] is one such zone ([Dial], [Net.LastCheckpoint], [Net.Start],
// [Net.Step], [Net.Close]; the luahost zone command). Each zone runs on
// its own clock. Handoffs go through the world's stream on a subject that
// names their receiver and their sender,
// luahost.<world>.handoff.<to>.<from> (a zone refuses a handoff whose
// subject names another sender than the handoff does), with message ids
// that make a handoff sent twice by one claim stored once; every entity's
// owner record (zone, handoff count) lives in a
// key-value bucket, changes by compare-and-set and stays as a tombstone
// when the entity dies; a zone saves a
// checkpoint of itself every NetOptions.Checkpoint frames and resumes from
// it after a crash, dropping what moved on meanwhile, so that every entity
// is in exactly one zone at every moment. A zone that loses NATS runs its
// own entities on and holds its outgoing handoffs. Each claim of a zone
// has a fencing epoch, one more than the claim before, that its
// handoffs, owner records and checkpoints carry: a process whose zone was
// claimed again while it did not answer stops (ErrFenced) and its writes
// fail; checkpoints are written by compare-and-set. With
// NetOptions.Creds a zone connects with its own NATS identity, which the
// server may allow to send handoffs to the other zones only.
//
// A [Link] is the NATS link of one zone of a world in lockstep
// (zones.Lockstep; [DialLink]; luahost zone --lockstep): each frame's
// rounds go over plain subjects, and nothing is stored, so a zone that
// stops answering stops the world.
package nats
