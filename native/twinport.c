/*
 * twinport's native transport for Node (issue 32): TCP listen/accept/read/writev/half-close/
 * destroy on non-blocking sockets. Each listener owns an epoll set holding its listening socket
 * and its connections; the set's descriptor is watched by one uv_poll on the loop Node already
 * runs (napi_get_uv_event_loop). One wake-up of that poll handles every ready socket (accepts,
 * one read per readable connection, flushes of queued writes) and records what happened in a
 * table JS holds; then one call into JS hands the table over: one JS entry per wake-up, not per
 * socket. The TypeScript side (lib/native/) turns it into the engine's Platform; everything
 * above the socket (HTTP, WebSocket, rooms, time-outs) stays there.
 *
 * Contract with lib/native/native-binding.ts:
 *  - listen(host, port, backlog, events, reusePort?) -> { server, port }; throws an Error with
 *    `code` (EADDRINUSE, ...) when the socket cannot listen. `reusePort` true sets SO_REUSEPORT
 *    before bind, so several processes (each its own listener) share the port and the kernel
 *    spreads new connections over their accept queues. `events` holds
 *    batch(records, slab, count): `records` a Uint32Array of RECORD_FIELDS numbers per record,
 *    `count` records, in the order they happened: [kind, slot, offset, length], kind one of
 *    OPEN 0, DATA 1 (`length` bytes read into `slab` at `offset`; that range is never written
 *    again), END 2 (the peer ended its side), DRAIN 3 (the queued bytes were all sent), CLOSE 4
 *    (gone: reset, or both sides ended); and optionally acceptFailed(code): accept failed for
 *    want of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM). The listener then stops
 *    watching its socket for ACCEPT_BACKOFF_MS (the pending connection keeps the socket
 *    readable: polling it would spin) and calls acceptFailed once per back-off.
 *    A batch call that answers true asks for turnEnd(): called once per wake-up, after the
 *    last batch of it and after the promise jobs and nextTicks that batch left (so JS runs
 *    what it deferred to the end of the turn without a setImmediate). `turnEnds` (true) on the
 *    exports says the binary does so.
 *  - write(slot, ...chunks) -> bytes still queued here (>= 0), or -errno when the socket
 *    failed (the caller destroys it). At most 16 chunks, each a Uint8Array. The bytes go to the
 *    kernel at once (writev), in the same turn: no wait for the poll.
 *  - writeMany(bytes, slots, count, results) -> reported: one frame to many connections (a
 *    broadcast's slice) in one call, each as write(slot, bytes) would (a send when nothing is
 *    queued, else behind its queue); only the receivers left with bytes queued or failed are
 *    reported, as [index, queued or -errno] pairs in `results` (an Int32Array). The shared bytes
 *    are copied only for a receiver whose kernel buffer did not take them all.
 *  - end(slot) -> 1 when the connection is now closed (both sides done), else 0.
 *  - destroy(slot), pause(slot), resume(slot), close(server).
 *  - remoteAddress(slot) -> the peer's address as text (getpeername, read when asked: nothing
 *    is kept per connection for it), or undefined.
 *  - connSize: the bytes of one connection's native record.
 * Calls into JS come only from the poll callback (never from inside a call JS made), so the
 * engine is never re-entered; a close JS caused (destroy, end) is JS's to report.
 *
 * Memory safety: reads go into the free tail of a 64 KiB slab (an ArrayBuffer owned by V8,
 * held by a reference): never past its end, and never into bytes handed out before (a slab
 * is used front to back, then replaced; the records naming the old one are handed over
 * first), so the views the engine keeps stay valid. The record table and the slab are checked
 * after every call into JS: one JS detached is replaced, never written. Writes copy only what
 * the kernel did not take into a queue of malloc'd chunks of exact size.
 * Linux (epoll, accept4); elsewhere lib/native falls back to node:net.
 */
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include <uv.h>

#ifndef NODE_GYP_MODULE_NAME
#define NODE_GYP_MODULE_NAME twinport
#endif

#define SLAB_SIZE (64 * 1024)
#define SLAB_MIN_FREE (16 * 1024)
#define MAX_CHUNKS 16
#define ACCEPTS_PER_CALLBACK 128
/* Ready sockets taken from the epoll set per wake-up (the rest wait for the next one). */
#define EVENTS_PER_WAKE 256
/* Records handed to JS per call: [kind, slot, offset, length]. */
#define RECORD_FIELDS 4
#define RECORDS_PER_CALL 512
/* How long the listener stops watching its socket after accept ran out of descriptors. */
#define ACCEPT_BACKOFF_MS 100
/* The epoll data of the listening socket (connections carry their slot, below 2^32). */
#define LISTENER_TAG UINT64_MAX

/* Unsent bytes of one connection, oldest first; each chunk exactly as large as its bytes. */
typedef struct chunk {
  struct chunk *next;
  size_t length;
  size_t sent;
  unsigned char bytes[];
} chunk_t;

/* Connection flags. */
enum {
  PAUSED = 1,      /* JS asked to stop reading */
  PEER_ENDED = 2,  /* read() answered 0 */
  END_ASKED = 4,   /* JS ended our side; shutdown once the queue is empty */
  WRITE_SHUT = 8,  /* shutdown(SHUT_WR) done */
  CLOSED = 16,     /* fd closed; the record is freed */
};

/* What a record tells JS. */
enum { REC_OPEN, REC_DATA, REC_END, REC_DRAIN, REC_CLOSE };
enum { CB_BATCH, CB_ACCEPT_FAILED, CB_TURN_END, CB_COUNT };

struct server;

/* One connection: a few words (the epoll set is the listener's, so no handle of its own). */
typedef struct conn {
  struct server *server;
  chunk_t *head;
  chunk_t *tail;
  size_t queued;
  int fd;
  uint32_t slot;
  uint32_t events; /* what the epoll set watches for it; 0: not in the set */
  int flags;
} conn_t;

typedef struct server {
  napi_env env;
  uv_poll_t poll;     /* watches epfd: readable when a socket of the set is ready */
  uv_timer_t backoff; /* re-adds the listening socket after accept failed for want of descriptors */
  int epfd;
  int fd;
  int listening;
  int poll_closing;
  uint32_t conn_count;
  uint32_t users; /* the poll and timer handles, and a running poll callback; freed at zero */
  napi_ref callbacks[CB_COUNT];
  napi_ref receiver;
  napi_async_context async;
  napi_ref slab_ref;
  unsigned char *slab;
  size_t slab_used;
  napi_ref records_ref; /* the Uint32Array JS reads the records from */
  uint32_t *records;
  uint32_t record_count;
  int turn_pending; /* a batch answered true: turnEnd is called once the wake-up is done */
} server_t;

/* The connections of this Node environment by slot: what JS names a connection with. */
typedef struct {
  conn_t **conns;
  uint32_t capacity;
  uint32_t *free_slots;
  uint32_t free_count;
  uv_loop_t *loop;
} state_t;

static state_t *state_of(napi_env env) {
  void *data = NULL;
  napi_get_instance_data(env, &data);
  return (state_t *)data;
}

static int take_slot(state_t *st, conn_t *c) {
  if (st->free_count == 0) {
    uint32_t grown = st->capacity == 0 ? 1024 : st->capacity * 2;
    conn_t **conns = realloc(st->conns, grown * sizeof(conn_t *));
    if (conns == NULL) return -1;
    st->conns = conns;
    uint32_t *free_slots = realloc(st->free_slots, grown * sizeof(uint32_t));
    if (free_slots == NULL) return -1;
    st->free_slots = free_slots;
    for (uint32_t i = grown; i > st->capacity; i--) st->free_slots[st->free_count++] = i - 1;
    for (uint32_t i = st->capacity; i < grown; i++) st->conns[i] = NULL;
    st->capacity = grown;
  }
  uint32_t slot = st->free_slots[--st->free_count];
  st->conns[slot] = c;
  c->slot = slot;
  return 0;
}

static conn_t *conn_at(state_t *st, uint32_t slot) {
  if (slot >= st->capacity) return NULL;
  conn_t *c = st->conns[slot];
  return c != NULL && (c->flags & CLOSED) == 0 ? c : NULL;
}

static void server_release(server_t *s) {
  if (--s->users > 0) return;
  for (int i = 0; i < CB_COUNT; i++)
    if (s->callbacks[i] != NULL) napi_delete_reference(s->env, s->callbacks[i]);
  napi_delete_reference(s->env, s->receiver);
  if (s->slab_ref != NULL) napi_delete_reference(s->env, s->slab_ref);
  if (s->records_ref != NULL) napi_delete_reference(s->env, s->records_ref);
  napi_async_destroy(s->env, s->async);
  free(s);
}

static void on_poll_closed(uv_handle_t *handle) {
  server_t *s = handle->data;
  close(s->epfd);
  s->epfd = -1;
  server_release(s);
}

/* The listener is closed and its last connection gone: stop watching the set (which lets the
 * loop end, as node:net's closed server and sockets do). */
static void close_poll_if_idle(server_t *s) {
  if (s->listening || s->conn_count > 0 || s->poll_closing) return;
  s->poll_closing = 1;
  uv_close((uv_handle_t *)&s->poll, on_poll_closed);
}

/* ---------------------------------------------------------------- calling JS */

/* Calls callback `which` inside a callback scope, so promise jobs and nextTicks run after it
 * as they do after node:net's events. An exception goes to 'uncaughtException', as one thrown
 * in an event listener does. */
static napi_value call_js(server_t *s, int which, size_t argc, napi_value *argv) {
  napi_env env = s->env;
  napi_value fn, recv, result = NULL;
  napi_get_reference_value(env, s->callbacks[which], &fn);
  napi_get_reference_value(env, s->receiver, &recv);
  napi_status status = napi_make_callback(env, s->async, recv, fn, argc, argv, &result);
  if (status == napi_pending_exception) {
    napi_value error;
    napi_get_and_clear_last_exception(env, &error);
    napi_fatal_exception(env, error);
    return NULL;
  }
  return status == napi_ok ? result : NULL;
}

/* Whether `value` is the boolean true. */
static bool is_true(napi_env env, napi_value value) {
  bool answer = false;
  return value != NULL && napi_get_value_bool(env, value, &answer) == napi_ok && answer;
}

/* Makes sure `records` points at a live table JS can read: a new one when there is none or JS
 * detached it (a detached typed array answers length 0). 0, or -1 out of memory. */
static int ensure_records(server_t *s) {
  if (s->records_ref != NULL) {
    napi_value array;
    napi_typedarray_type type;
    size_t length = 0;
    void *data = NULL;
    if (napi_get_reference_value(s->env, s->records_ref, &array) == napi_ok &&
        napi_get_typedarray_info(s->env, array, &type, &length, &data, NULL, NULL) == napi_ok &&
        length == RECORDS_PER_CALL * RECORD_FIELDS && data != NULL) {
      s->records = data;
      return 0;
    }
    napi_delete_reference(s->env, s->records_ref);
    s->records_ref = NULL;
    s->records = NULL;
  }
  napi_value buffer, array;
  void *data = NULL;
  if (napi_create_arraybuffer(s->env, RECORDS_PER_CALL * RECORD_FIELDS * sizeof(uint32_t), &data, &buffer) != napi_ok ||
      napi_create_typedarray(s->env, napi_uint32_array, RECORDS_PER_CALL * RECORD_FIELDS, buffer, 0, &array) != napi_ok ||
      napi_create_reference(s->env, array, 1, &s->records_ref) != napi_ok)
    return -1;
  s->records = data;
  return 0;
}

/* A slab JS detached is dropped (the next read takes a new one), never written. */
static void check_slab(server_t *s) {
  if (s->slab_ref == NULL) return;
  napi_value ab;
  bool detached = true;
  if (napi_get_reference_value(s->env, s->slab_ref, &ab) != napi_ok || napi_is_detached_arraybuffer(s->env, ab, &detached) != napi_ok || detached) {
    napi_delete_reference(s->env, s->slab_ref);
    s->slab_ref = NULL;
    s->slab = NULL;
    s->slab_used = 0;
  }
}

/* Hands the records so far to JS in one call, then checks what JS may have detached. */
static void flush_records(server_t *s) {
  if (s->record_count == 0) return;
  napi_env env = s->env;
  napi_value argv[3];
  napi_get_reference_value(env, s->records_ref, &argv[0]);
  if (s->slab_ref != NULL) napi_get_reference_value(env, s->slab_ref, &argv[1]);
  else napi_get_undefined(env, &argv[1]);
  napi_create_uint32(env, s->record_count, &argv[2]);
  s->record_count = 0;
  s->records = NULL; /* JS may detach the table: not written again before it is checked */
  if (is_true(env, call_js(s, CB_BATCH, 3, argv))) s->turn_pending = 1;
  check_slab(s);
}

/* The wake-up is done and every batch's promise jobs and nextTicks have run (each call's
 * callback scope ran them): a batch that answered true asked for turnEnd now, which runs the
 * work JS deferred to the end of the turn (the engine's `afterIo`) without a setImmediate. */
static void end_turn(server_t *s) {
  if (!s->turn_pending) return;
  s->turn_pending = 0;
  if (s->callbacks[CB_TURN_END] != NULL) call_js(s, CB_TURN_END, 0, NULL);
}

/* Appends a record. The poll callback makes room before each socket it handles (ready_for_event),
 * so nothing here calls JS: a connection in hand is never freed under the caller. */
static void record(server_t *s, uint32_t kind, uint32_t slot, uint32_t offset, uint32_t length) {
  if (s->records == NULL || s->record_count == RECORDS_PER_CALL) return; /* out of memory only */
  uint32_t *r = s->records + (size_t)s->record_count * RECORD_FIELDS;
  r[0] = kind;
  r[1] = slot;
  r[2] = offset;
  r[3] = length;
  s->record_count++;
}

/* ---------------------------------------------------------------- connections */

static void free_queue(conn_t *c) {
  chunk_t *chunk = c->head;
  while (chunk != NULL) {
    chunk_t *next = chunk->next;
    free(chunk);
    chunk = next;
  }
  c->head = c->tail = NULL;
  c->queued = 0;
}

/* Watches what the connection waits for now: reads unless paused or at EOF, writability while
 * bytes are queued. With neither it leaves the set (epoll reports hang-ups and errors whatever
 * it is asked, and a paused connection must not spin on one). 0, or -errno. */
static int watch(conn_t *c) {
  uint32_t events = 0;
  if ((c->flags & (PAUSED | PEER_ENDED)) == 0) events |= EPOLLIN;
  if (c->head != NULL) events |= EPOLLOUT;
  if (events == c->events) return 0;
  struct epoll_event ev = {.events = events, .data = {.u64 = c->slot}};
  int op = events == 0 ? EPOLL_CTL_DEL : c->events == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
  if (epoll_ctl(c->server->epfd, op, c->fd, &ev) != 0) return -errno;
  c->events = events;
  return 0;
}

/* Closes the fd (which takes it out of the epoll set) and frees the record and its slot now. An
 * event of this wake-up still naming the slot finds it empty, or a connection accepted since
 * that only sees a readiness it re-checks (EAGAIN). */
static void conn_close(conn_t *c) {
  if (c->flags & CLOSED) return;
  server_t *s = c->server;
  state_t *st = state_of(s->env);
  c->flags |= CLOSED;
  free_queue(c);
  close(c->fd);
  st->conns[c->slot] = NULL;
  st->free_slots[st->free_count++] = c->slot;
  free(c);
  s->conn_count--;
  close_poll_if_idle(s);
}

/* Closes and records it (a close the poll callback found: JS's to hear). */
static void conn_gone(conn_t *c) {
  server_t *s = c->server;
  uint32_t slot = c->slot;
  conn_close(c);
  record(s, REC_CLOSE, slot, 0, 0);
}

/* Writes the queue while the kernel takes it: 0, or -errno on failure. */
static int flush_queue(conn_t *c) {
  while (c->head != NULL) {
    struct iovec iov[MAX_CHUNKS];
    int count = 0;
    for (chunk_t *chunk = c->head; chunk != NULL && count < MAX_CHUNKS; chunk = chunk->next, count++) {
      iov[count].iov_base = chunk->bytes + chunk->sent;
      iov[count].iov_len = chunk->length - chunk->sent;
    }
    ssize_t n = writev(c->fd, iov, count);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
      return -errno;
    }
    c->queued -= (size_t)n;
    while (n > 0 && c->head != NULL) {
      chunk_t *chunk = c->head;
      size_t left = chunk->length - chunk->sent;
      if ((size_t)n < left) {
        chunk->sent += (size_t)n;
        n = 0;
        break;
      }
      n -= (ssize_t)left;
      c->head = chunk->next;
      if (c->head == NULL) c->tail = NULL;
      free(chunk);
    }
    if (c->head != NULL) return 0; /* the kernel took less than offered: wait for writability */
  }
  return 0;
}

/* Our side ends once nothing waits; both sides ended: the connection is done. Answers 1 when
 * it closed. */
static int finish_if_done(conn_t *c) {
  if ((c->flags & END_ASKED) && !(c->flags & WRITE_SHUT) && c->head == NULL) {
    shutdown(c->fd, SHUT_WR);
    c->flags |= WRITE_SHUT;
  }
  if ((c->flags & (WRITE_SHUT | PEER_ENDED)) == (WRITE_SHUT | PEER_ENDED)) {
    conn_close(c);
    return 1;
  }
  return 0;
}

/* Makes sure the slab has room for a read; a new slab when the free tail is short (the records
 * naming the old one are handed over first: a call passes one slab). Calls JS: only where no
 * connection is in hand. 0, or -1 out of memory. */
static int ensure_slab(server_t *s) {
  if (s->slab != NULL && SLAB_SIZE - s->slab_used >= SLAB_MIN_FREE) return 0;
  if (s->slab != NULL) {
    flush_records(s);
    if (s->slab != NULL && SLAB_SIZE - s->slab_used >= SLAB_MIN_FREE) return 0;
  }
  napi_value ab;
  void *data = NULL;
  if (napi_create_arraybuffer(s->env, SLAB_SIZE, &data, &ab) != napi_ok) return -1;
  if (s->slab_ref != NULL) napi_delete_reference(s->env, s->slab_ref);
  s->slab_ref = NULL;
  s->slab = NULL;
  if (napi_create_reference(s->env, ab, 1, &s->slab_ref) != napi_ok) return -1;
  s->slab = data;
  s->slab_used = 0;
  return 0;
}

/* Records a socket's event may add at most: a drain or a close, then data, or an end and a close. */
#define RECORDS_PER_EVENT 3

/* Before one socket's event (or one accept): room for its records and a read, handing the
 * table to JS first when it is short. Calls JS: only where no connection is in hand.
 * 0, or -1 out of memory. */
static int ready_for_event(server_t *s) {
  if (s->record_count > RECORDS_PER_CALL - RECORDS_PER_EVENT) flush_records(s);
  if (ensure_slab(s) != 0) return -1; /* may hand the table over: the table is checked after */
  return s->records == NULL ? ensure_records(s) : 0;
}

/* One read of a readable connection (epoll is level-triggered: what is left wakes the set
 * again), recorded for JS; so a connection JS pauses while it handles a batch gets no more.
 * The slab has SLAB_MIN_FREE bytes free at least (ready_for_event). */
static void read_once(conn_t *c) {
  server_t *s = c->server;
  if (s->slab == NULL || s->records == NULL) return; /* out of memory: nothing is read that could not be told */
  for (;;) {
    size_t room = SLAB_SIZE - s->slab_used;
    ssize_t n = read(c->fd, s->slab + s->slab_used, room);
    if (n > 0) {
      record(s, REC_DATA, c->slot, (uint32_t)s->slab_used, (uint32_t)n);
      s->slab_used += (size_t)n;
      return;
    }
    if (n == 0) {
      c->flags |= PEER_ENDED;
      uint32_t slot = c->slot;
      if (watch(c) != 0) return conn_gone(c);
      record(s, REC_END, slot, 0, 0);
      if (finish_if_done(c)) record(s, REC_CLOSE, slot, 0, 0);
      return;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return;
    return conn_gone(c); /* ECONNRESET and the like: gone */
  }
}

/* What one epoll event of a connection asks. */
static void conn_ready(conn_t *c, uint32_t events) {
  server_t *s = c->server;
  if ((events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) && c->head != NULL) {
    if (flush_queue(c) != 0) return conn_gone(c);
    if (watch(c) != 0) return conn_gone(c);
    if (c->head == NULL) {
      uint32_t slot = c->slot;
      if (c->flags & END_ASKED) {
        if (finish_if_done(c)) return (void)record(s, REC_CLOSE, slot, 0, 0);
      } else {
        record(s, REC_DRAIN, slot, 0, 0);
      }
    }
  }
  if ((events & (EPOLLIN | EPOLLERR | EPOLLHUP)) && (c->flags & (PAUSED | PEER_ENDED)) == 0) read_once(c);
}

/* ---------------------------------------------------------------- the listener */

/* The back-off is over: watch the listening socket again. */
static void backoff_cb(uv_timer_t *timer) {
  server_t *s = timer->data;
  if (!s->listening) return;
  struct epoll_event ev = {.events = EPOLLIN, .data = {.u64 = LISTENER_TAG}};
  epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->fd, &ev);
}

/* accept failed with `code` (out of descriptors or memory): the connection stays in the kernel's
 * queue and the socket readable, so stop watching it for a while instead of spinning, and tell
 * JS (the engine counts it and logs once per interval), after the records so far. */
static void accept_back_off(server_t *s, int code) {
  struct epoll_event ev = {0};
  epoll_ctl(s->epfd, EPOLL_CTL_DEL, s->fd, &ev);
  uv_timer_start(&s->backoff, backoff_cb, ACCEPT_BACKOFF_MS, 0);
  if (s->callbacks[CB_ACCEPT_FAILED] == NULL) return;
  flush_records(s);
  napi_value arg;
  const char *name = code == EMFILE ? "EMFILE" : code == ENFILE ? "ENFILE" : code == ENOBUFS ? "ENOBUFS" : "ENOMEM";
  napi_create_string_utf8(s->env, name, NAPI_AUTO_LENGTH, &arg);
  call_js(s, CB_ACCEPT_FAILED, 1, &arg);
}

/* Accepts what the kernel queued (up to ACCEPTS_PER_CALLBACK), each into the epoll set and
 * recorded as opened. */
static void accept_some(server_t *s) {
  state_t *st = state_of(s->env);
  for (int i = 0; i < ACCEPTS_PER_CALLBACK && s->listening; i++) {
    if (ready_for_event(s) != 0) return;
    if (!s->listening) return; /* JS closed it while it had the records */
    int fd = accept4(s->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) accept_back_off(s, errno);
      return; /* EAGAIN: the next wake-up tries again */
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    conn_t *c = calloc(1, sizeof(conn_t));
    if (c == NULL || take_slot(st, c) != 0) {
      free(c);
      close(fd);
      continue;
    }
    c->server = s;
    c->fd = fd;
    s->conn_count++;
    if (watch(c) != 0) {
      conn_close(c);
      continue;
    }
    record(s, REC_OPEN, c->slot, 0, 0);
  }
}

/* One wake-up: every ready socket of the set handled, then the records handed to JS at once. */
static void server_cb(uv_poll_t *handle, int status, int events) {
  (void)events;
  server_t *s = handle->data;
  if (status < 0 || s->poll_closing) return;
  state_t *st = state_of(s->env);
  struct epoll_event ready[EVENTS_PER_WAKE];
  int count;
  do count = epoll_wait(s->epfd, ready, EVENTS_PER_WAKE, 0);
  while (count < 0 && errno == EINTR);
  if (count <= 0) return;
  s->users++; /* JS may close the server and its last connection while it has the records */
  napi_handle_scope scope;
  napi_open_handle_scope(s->env, &scope);
  for (int i = 0; i < count; i++) {
    if (ready_for_event(s) != 0) break;
    if (ready[i].data.u64 == LISTENER_TAG) {
      if (s->listening) accept_some(s);
      continue;
    }
    conn_t *c = conn_at(st, (uint32_t)ready[i].data.u64);
    if (c != NULL && c->server == s) conn_ready(c, ready[i].events);
  }
  flush_records(s);
  end_turn(s);
  napi_close_handle_scope(s->env, scope);
  server_release(s);
}

/* ---------------------------------------------------------------- functions for JS */

static napi_value undefined_value(napi_env env) {
  napi_value v;
  napi_get_undefined(env, &v);
  return v;
}

static napi_value int_value(napi_env env, int64_t n) {
  napi_value v;
  napi_create_int64(env, n, &v);
  return v;
}

static void throw_errno(napi_env env, const char *what, int code, const char *address) {
  char message[256];
  const char *name = code == EADDRINUSE ? "EADDRINUSE" : code == EACCES ? "EACCES" : code == EADDRNOTAVAIL ? "EADDRNOTAVAIL" : "ENATIVE";
  snprintf(message, sizeof message, "%s %s: %s %s", what, name, strerror(code), address);
  napi_throw_error(env, name, message);
}

/* The connection named by the first argument, or NULL when it is gone. */
static conn_t *conn_arg(napi_env env, napi_value value) {
  uint32_t slot = 0;
  if (napi_get_value_uint32(env, value, &slot) != napi_ok) return NULL;
  return conn_at(state_of(env), slot);
}

static napi_value js_listen(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char host[256];
  size_t host_length = 0;
  uint32_t port = 0, backlog = 511;
  bool reuse_port = false;
  if (argc >= 5) {
    napi_valuetype type;
    if (napi_typeof(env, argv[4], &type) == napi_ok && type == napi_boolean) napi_get_value_bool(env, argv[4], &reuse_port);
  }
  if (argc < 4 || napi_get_value_string_utf8(env, argv[0], host, sizeof host, &host_length) != napi_ok ||
      napi_get_value_uint32(env, argv[1], &port) != napi_ok || napi_get_value_uint32(env, argv[2], &backlog) != napi_ok || port > 65535) {
    napi_throw_type_error(env, NULL, "listen(host, port, backlog, events)");
    return NULL;
  }
  const char *names[CB_COUNT] = {"batch", "acceptFailed", "turnEnd"};
  napi_value fns[CB_COUNT];
  int present[CB_COUNT] = {0};
  for (int i = 0; i < CB_COUNT; i++) {
    napi_valuetype type;
    present[i] = napi_get_named_property(env, argv[3], names[i], &fns[i]) == napi_ok && napi_typeof(env, fns[i], &type) == napi_ok && type == napi_function;
    if (!present[i] && i == CB_BATCH) {
      napi_throw_type_error(env, NULL, "listen: events needs a batch function");
      return NULL;
    }
  }

  char port_text[8];
  snprintf(port_text, sizeof port_text, "%u", port);
  struct addrinfo hints = {0}, *found = NULL;
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  char address[300];
  snprintf(address, sizeof address, "%s:%u", host, port);
  int gai = getaddrinfo(host, port_text, &hints, &found);
  if (gai != 0 || found == NULL) {
    char message[400];
    snprintf(message, sizeof message, "listen ENOTFOUND: %s %s", gai_strerror(gai), address);
    napi_throw_error(env, "ENOTFOUND", message);
    return NULL;
  }
  int fd = socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    freeaddrinfo(found);
    throw_errno(env, "listen", errno, address);
    return NULL;
  }
  int one = 1, zero = 0;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (reuse_port && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) != 0) {
    int code = errno;
    freeaddrinfo(found);
    close(fd);
    throw_errno(env, "listen (SO_REUSEPORT)", code, address);
    return NULL;
  }
  if (found->ai_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
  if (bind(fd, found->ai_addr, found->ai_addrlen) != 0 || listen(fd, (int)backlog) != 0) {
    int code = errno;
    freeaddrinfo(found);
    close(fd);
    throw_errno(env, "listen", code, address);
    return NULL;
  }
  freeaddrinfo(found);
  struct sockaddr_storage bound;
  socklen_t bound_length = sizeof bound;
  getsockname(fd, (struct sockaddr *)&bound, &bound_length);
  uint32_t bound_port = bound.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&bound)->sin6_port) : ntohs(((struct sockaddr_in *)&bound)->sin_port);

  state_t *st = state_of(env);
  server_t *s = calloc(1, sizeof(server_t));
  int epfd = epoll_create1(EPOLL_CLOEXEC);
  struct epoll_event ev = {.events = EPOLLIN, .data = {.u64 = LISTENER_TAG}};
  if (s == NULL || epfd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) != 0 || uv_poll_init(st->loop, &s->poll, epfd) != 0) {
    free(s);
    if (epfd >= 0) close(epfd);
    close(fd);
    napi_throw_error(env, "ENOMEM", "listen: out of memory or descriptors");
    return NULL;
  }
  uv_timer_init(st->loop, &s->backoff);
  uv_unref((uv_handle_t *)&s->backoff); /* the set's poll keeps the loop alive, not the back-off */
  s->env = env;
  s->epfd = epfd;
  s->fd = fd;
  s->listening = 1;
  s->users = 2; /* the poll and the timer, each released when closed */
  s->poll.data = s;
  s->backoff.data = s;
  for (int i = 0; i < CB_COUNT; i++)
    if (present[i]) napi_create_reference(env, fns[i], 1, &s->callbacks[i]);
  napi_create_reference(env, argv[3], 1, &s->receiver);
  napi_value name;
  napi_create_string_utf8(env, "twinport.native", NAPI_AUTO_LENGTH, &name);
  napi_async_init(env, argv[3], name, &s->async);
  uv_poll_start(&s->poll, UV_READABLE, server_cb);

  napi_value result, handle, port_value;
  napi_create_object(env, &result);
  napi_create_external(env, s, NULL, NULL, &handle);
  napi_create_uint32(env, bound_port, &port_value);
  napi_set_named_property(env, result, "server", handle);
  napi_set_named_property(env, result, "port", port_value);
  return result;
}

static void on_backoff_closed(uv_handle_t *handle) {
  server_release(handle->data);
}

static napi_value js_close(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  void *data = NULL;
  if (argc < 1 || napi_get_value_external(env, argv[0], &data) != napi_ok || data == NULL) {
    napi_throw_type_error(env, NULL, "close(server)");
    return NULL;
  }
  server_t *s = data;
  if (s->listening) {
    s->listening = 0;
    close(s->fd); /* out of the epoll set with it */
    s->fd = -1;
    uv_close((uv_handle_t *)&s->backoff, on_backoff_closed);
    close_poll_if_idle(s); /* open connections keep the set watched until they close */
  }
  return undefined_value(env);
}

static napi_value js_write(napi_env env, napi_callback_info info) {
  size_t argc = MAX_CHUNKS + 1;
  napi_value argv[MAX_CHUNKS + 1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 1 || argc > MAX_CHUNKS + 1) {
    napi_throw_type_error(env, NULL, "write(slot, ...chunks): 1 to 16 chunks");
    return NULL;
  }
  struct iovec iov[MAX_CHUNKS];
  int count = 0;
  size_t total = 0;
  for (size_t i = 1; i < argc; i++) {
    napi_typedarray_type type;
    size_t length = 0;
    void *data = NULL;
    if (napi_get_typedarray_info(env, argv[i], &type, &length, &data, NULL, NULL) != napi_ok || type != napi_uint8_array) {
      napi_throw_type_error(env, NULL, "write: chunks must be Uint8Arrays");
      return NULL;
    }
    if (length == 0) continue;
    iov[count].iov_base = data;
    iov[count].iov_len = length;
    total += length;
    count++;
  }
  conn_t *c = conn_arg(env, argv[0]);
  if (c == NULL) return int_value(env, -EBADF);
  if (c->flags & (END_ASKED | WRITE_SHUT)) return int_value(env, -EPIPE);
  if (count == 0) return int_value(env, (int64_t)c->queued);
  size_t sent = 0;
  if (c->head == NULL) {
    for (;;) {
      ssize_t n = writev(c->fd, iov, count);
      if (n >= 0) {
        sent = (size_t)n;
        break;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      return int_value(env, -errno);
    }
  }
  if (sent == total) return int_value(env, (int64_t)c->queued);
  /* Keep what the kernel did not take: one chunk holding the rest of every array. */
  size_t rest = total - sent;
  chunk_t *chunk = malloc(sizeof(chunk_t) + rest);
  if (chunk == NULL) return int_value(env, -ENOMEM);
  chunk->next = NULL;
  chunk->length = rest;
  chunk->sent = 0;
  size_t at = 0, skip = sent;
  for (int i = 0; i < count; i++) {
    size_t length = iov[i].iov_len;
    if (skip >= length) {
      skip -= length;
      continue;
    }
    memcpy(chunk->bytes + at, (unsigned char *)iov[i].iov_base + skip, length - skip);
    at += length - skip;
    skip = 0;
  }
  if (c->tail != NULL) c->tail->next = chunk;
  else c->head = chunk;
  c->tail = chunk;
  c->queued += rest;
  int failed = watch(c);
  return int_value(env, failed != 0 ? failed : (int64_t)c->queued);
}

/* ---------------------------------------------------------------- one frame to many (broadcast) */

/* Queues `length` bytes of `data` behind what the connection holds (a copy: the caller's bytes
 * are only borrowed for the call). The bytes still queued, or -errno. */
static int64_t queue_copy(conn_t *c, const unsigned char *data, size_t length) {
  chunk_t *chunk = malloc(sizeof(chunk_t) + length);
  if (chunk == NULL) return -ENOMEM;
  chunk->next = NULL;
  chunk->length = length;
  chunk->sent = 0;
  memcpy(chunk->bytes, data, length);
  if (c->tail != NULL) c->tail->next = chunk;
  else c->head = chunk;
  c->tail = chunk;
  c->queued += length;
  int failed = watch(c);
  return failed != 0 ? failed : (int64_t)c->queued;
}

/* The shared bytes to one receiver, as write() would: straight to the kernel when nothing is
 * queued (one send: no iovec to import), else behind the queue, so the receiver's bytes keep
 * their order. The bytes still queued (0: all sent), or -errno (the caller destroys it). */
static int64_t write_shared(conn_t *c, const unsigned char *data, size_t length) {
  if (c->flags & (END_ASKED | WRITE_SHUT)) return -EPIPE;
  size_t sent = 0;
  if (c->head == NULL) {
    for (;;) {
      ssize_t n = send(c->fd, data, length, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n >= 0) {
        sent = (size_t)n;
        break;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      return -errno;
    }
    if (sent == length) return 0;
  }
  return queue_copy(c, data + sent, length - sent);
}

/* writeMany(bytes, slots, count, results) -> reported: `bytes` to each of the connections
 * slots[0..count), in that order, each as write(slot, bytes) would; one call for a broadcast's
 * slice instead of one per receiver. Only the receivers JS must hear about are reported, in
 * `results` (an Int32Array of 2 * count at least), as pairs [index into slots, outcome]: the
 * bytes now queued for it (> 0, clamped to 2^31 - 1), or -errno (gone, ended, or the socket
 * failed: JS destroys it). A receiver that took everything is not reported. */
static napi_value js_write_many(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_typedarray_type type;
  size_t length = 0, slot_length = 0, result_length = 0;
  void *data = NULL, *slots_data = NULL, *results_data = NULL;
  uint32_t count = 0;
  if (argc < 4 || napi_get_typedarray_info(env, argv[0], &type, &length, &data, NULL, NULL) != napi_ok || type != napi_uint8_array ||
      napi_get_typedarray_info(env, argv[1], &type, &slot_length, &slots_data, NULL, NULL) != napi_ok || type != napi_uint32_array ||
      napi_get_value_uint32(env, argv[2], &count) != napi_ok ||
      napi_get_typedarray_info(env, argv[3], &type, &result_length, &results_data, NULL, NULL) != napi_ok || type != napi_int32_array ||
      count > slot_length || (size_t)count * 2 > result_length) {
    napi_throw_type_error(env, NULL, "writeMany(bytes: Uint8Array, slots: Uint32Array, count, results: Int32Array of 2 * count)");
    return NULL;
  }
  state_t *st = state_of(env);
  const uint32_t *slots = slots_data;
  int32_t *results = results_data;
  uint32_t reported = 0;
  for (uint32_t i = 0; i < count; i++) {
    conn_t *c = conn_at(st, slots[i]);
    int64_t outcome = c == NULL ? -EBADF : length == 0 ? (int64_t)c->queued : write_shared(c, data, length);
    if (outcome == 0) continue;
    results[2 * reported] = (int32_t)i;
    results[2 * reported + 1] = outcome > INT32_MAX ? INT32_MAX : (int32_t)outcome;
    reported++;
  }
  napi_value result;
  napi_create_uint32(env, reported, &result);
  return result;
}

static napi_value js_end(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  conn_t *c = argc < 1 ? NULL : conn_arg(env, argv[0]);
  if (c == NULL) return int_value(env, 1);
  c->flags |= END_ASKED;
  return int_value(env, finish_if_done(c));
}

static napi_value js_destroy(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  conn_t *c = argc < 1 ? NULL : conn_arg(env, argv[0]);
  if (c != NULL) conn_close(c);
  return undefined_value(env);
}

static napi_value set_paused(napi_env env, napi_callback_info info, int paused) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  conn_t *c = argc < 1 ? NULL : conn_arg(env, argv[0]);
  if (c != NULL) {
    c->flags = paused ? (c->flags | PAUSED) : (c->flags & ~PAUSED);
    watch(c);
  }
  return undefined_value(env);
}

static napi_value js_pause(napi_env env, napi_callback_info info) { return set_paused(env, info, 1); }
static napi_value js_resume(napi_env env, napi_callback_info info) { return set_paused(env, info, 0); }

/* The peer's address as text, as node:net's remoteAddress gives it; undefined when unknown. */
static napi_value js_remote_address(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  conn_t *c = argc < 1 ? NULL : conn_arg(env, argv[0]);
  struct sockaddr_storage peer;
  socklen_t length = sizeof peer;
  char text[INET6_ADDRSTRLEN];
  if (c == NULL || getpeername(c->fd, (struct sockaddr *)&peer, &length) != 0) return undefined_value(env);
  const void *address = peer.ss_family == AF_INET6 ? (const void *)&((struct sockaddr_in6 *)&peer)->sin6_addr : (const void *)&((struct sockaddr_in *)&peer)->sin_addr;
  if ((peer.ss_family != AF_INET && peer.ss_family != AF_INET6) || inet_ntop(peer.ss_family, address, text, sizeof text) == NULL) return undefined_value(env);
  napi_value result;
  napi_create_string_latin1(env, text, NAPI_AUTO_LENGTH, &result);
  return result;
}

/* Open connections of this environment (for specs and memory figures). */
static napi_value js_open_count(napi_env env, napi_callback_info info) {
  (void)info;
  state_t *st = state_of(env);
  return int_value(env, (int64_t)(st->capacity - st->free_count));
}

static void state_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  state_t *st = data;
  free(st->conns);
  free(st->free_slots);
  free(st);
}

static napi_value init(napi_env env, napi_value exports) {
  state_t *st = calloc(1, sizeof(state_t));
  if (st == NULL) return NULL;
  if (napi_get_uv_event_loop(env, &st->loop) != napi_ok) {
    free(st);
    napi_throw_error(env, NULL, "twinport native: no libuv loop");
    return NULL;
  }
  napi_set_instance_data(env, st, state_finalize, NULL);
  napi_property_descriptor props[] = {
      {"listen", NULL, js_listen, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, js_close, NULL, NULL, NULL, napi_default, NULL},
      {"write", NULL, js_write, NULL, NULL, NULL, napi_default, NULL},
      {"writeMany", NULL, js_write_many, NULL, NULL, NULL, napi_default, NULL},
      {"end", NULL, js_end, NULL, NULL, NULL, napi_default, NULL},
      {"destroy", NULL, js_destroy, NULL, NULL, NULL, napi_default, NULL},
      {"pause", NULL, js_pause, NULL, NULL, NULL, napi_default, NULL},
      {"resume", NULL, js_resume, NULL, NULL, NULL, napi_default, NULL},
      {"openCount", NULL, js_open_count, NULL, NULL, NULL, napi_default, NULL},
      {"remoteAddress", NULL, js_remote_address, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  napi_value size;
  napi_create_uint32(env, (uint32_t)sizeof(conn_t), &size);
  napi_set_named_property(env, exports, "connSize", size);
  napi_value turn_ends;
  napi_get_boolean(env, true, &turn_ends);
  napi_set_named_property(env, exports, "turnEnds", turn_ends); /* batch may answer true: turnEnd follows */
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
