/*
 * wsload: the C WebSocket load client of bench/c1m (issue 31) and of `npm run bench`'s
 * echo workloads (issue 32). One process, one epoll loop, no threads; it stays far below
 * any server it measures. Built by the harness with the system cc (bench/c1m/build-c.ts):
 *
 *   cc -O2 -o wsload bench/c1m/wsload.c
 *
 * Two modes, both loopback only, both bounded by --deadline (ms, hard exit):
 *
 * idle: opens --conns WebSocket connections to 127.0.0.1:--port on --path, binding
 *   them in turn to the source addresses --src a,b,… (127.x.y.z of its own, so that many
 *   clients get their own ephemeral port ranges; keep each under ~10,000 connections:
 *   past half its ports connect() searches long), at most --concurrency handshakes at a time;
 *   answers every ping with a pong, counts pings and data messages. Commands on stdin,
 *   one per line, answered by one line on stdout:
 *     stat  -> STAT open=<n> failed=<n> closed=<n> recv=<n> pings=<n> last=<ns> now=<ns>
 *     send  -> SENT t=<ns>   (one 32-byte text message on the first open connection)
 *     wait R -> GOT recv=<n> last=<ns>, as soon as the data messages received reach R (at
 *              once if they already have): a broadcast's end without the driver polling
 *     more  -> (with --first K) opens the rest, up to --conns; PROGRESS, then READY again
 *     quit  -> exits (so does EOF on stdin)
 *   With --first K it opens only the first K connections, then waits for `more` (the driver
 *   measures memory between the two waves: the slope per connection, no base needed).
 *   While connecting it prints PROGRESS lines (every 200 ms) and READY when done. Once all
 *   are open it sleeps in epoll_wait with no time-out (until the deadline): an idle client
 *   wakes only for a ping, a message or a command.
 *   Per connection it keeps 32 bytes (struct conn) beside the kernel's socket.
 *
 * echo: --conns connections to the echo path, each keeping --inflight messages of
 *   --size bytes (pre-built masked text frames) in flight; after --warmup ms it counts
 *   round trips over --ms ms and prints the RESULT line of bench/load/client-result.ts:
 *   messages, msg/s window, latency p50/p99/max (ms), the server's CPU (utime + stime
 *   of --server-pid from /proc) and its own (getrusage) over the window.
 *
 * Frames from the server are never decoded beyond their headers (RFC 6455 §5.2); ping
 * payloads longer than 8 bytes are answered with their first 8 (twinport's are empty).
 * Must not need anything beyond libc and Linux (epoll).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

enum { ST_FREE, ST_CONNECTING, ST_HANDSHAKE, ST_OPEN, ST_DONE };

/* 32 bytes per connection: the frame-header reader's state and a short ping payload. */
struct conn {
  int fd;
  uint32_t left;   /* payload bytes of the current frame still to skip */
  uint8_t st;
  uint8_t hlen;    /* header bytes gathered (or "\r\n\r\n" matched while in ST_HANDSHAKE) */
  uint8_t need;    /* header bytes the current frame needs */
  uint8_t op;      /* opcode | 0x80 when FIN */
  uint8_t hdr[14];
  uint8_t plen;    /* ping payload bytes kept */
  uint8_t owed;    /* echo: frames not yet written (EAGAIN) */
  uint8_t ping[4];
};

static const uint8_t MASK[4] = {0x37, 0xfa, 0x21, 0x3d};
static struct conn *conns;
static int nconns, port, concurrency = 256, inflight = 10, msgsize = 32, server_pid = 0;
static const char *path = "/bcast", *mode = "idle";
static struct sockaddr_in srcs[64], dst;
static int nsrc;
static int ep;
static long long opened, failed, closed_n, recv_n, pings, pending, next_conn, target;
static long long wait_for = -1; /* `wait R`: R, until it is reached (-1: none) */
static long long last_ns;
static char upgrade[512];
static int upgrade_len;
static uint8_t *frames; /* echo: inflight pre-built masked frames back to back */
static int frame_len;
static uint8_t bcast_frame[64];
static int bcast_len;
/* echo: per connection ring of send times (inflight entries), and the latency histogram (µs) */
static long long *sent_at;
static uint16_t *ring_head, *ring_count;
#define HIST_US 200000
static uint32_t *hist;
static long long hist_max_us, hist_n;
static int counting;

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void die(const char *what) {
  printf("RESULT {\"mode\":\"%s\",\"ok\":false,\"error\":\"%s: %s\",\"failures\":%lld,\"ms\":0,\"messages\":0,\"serverCpuMs\":0,\"clientCpuMs\":0}\n",
         mode, what, strerror(errno), failed);
  fflush(stdout);
  exit(1);
}

/* A masked client frame (RFC 6455 §5.2, §5.3) of `len` payload bytes: 0x61 ('a') each. */
static int masked_frame(uint8_t *out, uint8_t opcode, const uint8_t *payload, int len) {
  int n = 0;
  out[n++] = 0x80 | opcode;
  if (len < 126) {
    out[n++] = 0x80 | len;
  } else {
    out[n++] = 0x80 | 126;
    out[n++] = (len >> 8) & 0xff;
    out[n++] = len & 0xff;
  }
  memcpy(out + n, MASK, 4);
  n += 4;
  for (int i = 0; i < len; i++) out[n + i] = (payload ? payload[i] : 0x61) ^ MASK[i & 3];
  return n + len;
}

static void start_connect(int i) {
  struct conn *c = &conns[i];
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (fd < 0) die("socket");
  int one = 1;
  setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (bind(fd, (struct sockaddr *)&srcs[i % nsrc], sizeof srcs[0]) < 0) die("bind");
  memset(c, 0, sizeof *c);
  c->fd = fd;
  c->st = ST_CONNECTING;
  pending++;
  if (connect(fd, (struct sockaddr *)&dst, sizeof dst) < 0 && errno != EINPROGRESS) {
    close(fd);
    c->st = ST_DONE;
    pending--;
    failed++;
    return;
  }
  struct epoll_event ev = {.events = EPOLLOUT, .data.u32 = (uint32_t)i};
  if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) die("epoll_ctl");
}

static void fill_connects(void) {
  while (next_conn < target && pending < concurrency) start_connect((int)next_conn++);
}

static void finish(struct conn *c, int was_open) {
  if (c->st == ST_DONE) return;
  if (was_open) closed_n++; else { failed++; pending--; }
  close(c->fd);
  c->st = ST_DONE;
}

static void send_frames(int i, int k) {
  struct conn *c = &conns[i];
  int total = k + c->owed;
  if (total > inflight) total = inflight;
  ssize_t w = write(c->fd, frames, (size_t)total * frame_len);
  if (w < 0) w = 0;
  /* A write cut inside a frame would need per-connection bookkeeping; with K x 32 bytes it
     does not happen on loopback, and if it did the connection is counted as a failure. */
  if (w % frame_len != 0) { c->st = ST_DONE; close(c->fd); failed++; return; }
  c->owed = (uint8_t)(total - w / frame_len);
}

static void on_frame_end(int i, long long t) {
  struct conn *c = &conns[i];
  uint8_t op = c->op & 0x0f;
  if (op == 0x9) {
    uint8_t pong[16];
    int n = masked_frame(pong, 0xA, c->ping, c->plen);
    if (write(c->fd, pong, n) < 0) { /* a full socket drops the pong; the server will say */ }
    pings++;
  } else if (op == 0x8) {
    finish(c, 1);
  } else if ((c->op & 0x80) && op != 0xA) {
    recv_n++;
    last_ns = t;
    if (sent_at) {
      if (ring_count[i] > 0) {
        long long us = (t - sent_at[(long long)i * inflight + ring_head[i]]) / 1000;
        ring_head[i] = (uint16_t)((ring_head[i] + 1) % inflight);
        ring_count[i]--;
        if (counting) {
          hist[us < HIST_US ? us : HIST_US - 1]++;
          if (us > hist_max_us) hist_max_us = us;
          hist_n++;
        }
      }
    }
  }
}

/* Reads the frames in buf[0..n) of connection i: headers only, payloads skipped. */
static void read_frames(int i, const uint8_t *buf, ssize_t n, long long t, int *done) {
  struct conn *c = &conns[i];
  ssize_t p = 0;
  while (p < n && c->st == ST_OPEN) {
    if (c->left > 0) {
      ssize_t take = n - p < (ssize_t)c->left ? n - p : (ssize_t)c->left;
      if ((c->op & 0x0f) == 0x9)
        for (ssize_t j = 0; j < take && c->plen < sizeof c->ping; j++) c->ping[c->plen++] = buf[p + j];
      c->left -= (uint32_t)take;
      p += take;
      if (c->left == 0) { on_frame_end(i, t); (*done)++; }
      continue;
    }
    c->hdr[c->hlen++] = buf[p++];
    if (c->hlen == 2) {
      uint8_t l7 = c->hdr[1] & 0x7f;
      c->need = 2 + (l7 == 126 ? 2 : l7 == 127 ? 8 : 0) + ((c->hdr[1] & 0x80) ? 4 : 0);
    }
    if (c->hlen >= 2 && c->hlen == c->need) {
      uint8_t l7 = c->hdr[1] & 0x7f;
      uint64_t len = l7;
      if (l7 == 126) len = ((uint64_t)c->hdr[2] << 8) | c->hdr[3];
      if (l7 == 127) { len = 0; for (int j = 2; j < 10; j++) len = (len << 8) | c->hdr[j]; }
      c->op = c->hdr[0] & 0x8f;
      c->hlen = 0;
      c->plen = 0;
      c->left = (uint32_t)len;
      if (len == 0) { on_frame_end(i, t); (*done)++; }
    }
  }
}

static uint8_t rbuf[1 << 16];

static void on_event(uint32_t i, uint32_t events, long long t) {
  struct conn *c = &conns[i];
  if (c->st == ST_CONNECTING) {
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0 || (events & (EPOLLERR | EPOLLHUP))) { finish(c, 0); return; }
    if (write(c->fd, upgrade, upgrade_len) != upgrade_len) { finish(c, 0); return; }
    c->st = ST_HANDSHAKE;
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = i};
    epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
    return;
  }
  for (;;) {
    ssize_t n = read(c->fd, rbuf, sizeof rbuf);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) { finish(c, c->st == ST_OPEN); return; }
    if (n < 0) return;
    ssize_t p = 0;
    if (c->st == ST_HANDSHAKE) {
      /* "HTTP/1.1 101" then everything up to the blank line; the 12 bytes come in one read. */
      if (!c->need && (n < 12 || memcmp(rbuf + 9, "101", 3) != 0)) { finish(c, 0); return; }
      c->need = 1;
      static const char END[4] = {'\r', '\n', '\r', '\n'};
      while (p < n && c->hlen < 4) c->hlen = rbuf[p++] == END[c->hlen] ? c->hlen + 1 : (rbuf[p - 1] == '\r' ? 1 : 0);
      if (c->hlen < 4) { if (n < (ssize_t)sizeof rbuf) return; continue; }
      c->hlen = 0;
      c->need = 0;
      c->st = ST_OPEN;
      opened++;
      pending--;
      if (frames) {
        for (int j = 0; j < inflight; j++) sent_at[(long long)i * inflight + j] = t;
        ring_head[i] = 0;
        ring_count[i] = (uint16_t)inflight;
        send_frames((int)i, inflight);
        if (c->st != ST_OPEN) return;
      }
    }
    int done = 0;
    int before = (int)recv_n;
    read_frames((int)i, rbuf + p, n - p, t, &done);
    if (frames && c->st == ST_OPEN) {
      int replies = (int)recv_n - before;
      int k = replies;
      if (k > 0 || c->owed > 0) {
        for (int j = 0; j < k && ring_count[i] < inflight; j++) {
          sent_at[(long long)i * inflight + (ring_head[i] + ring_count[i]) % inflight] = t;
          ring_count[i]++;
        }
        send_frames((int)i, k);
      }
    }
    if (n < (ssize_t)sizeof rbuf) return;
  }
}

static long long proc_cpu_ticks(int pid) {
  char p[64], buf[1024];
  snprintf(p, sizeof p, "/proc/%d/stat", pid);
  FILE *f = fopen(p, "r");
  if (!f) return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char *s = strrchr(buf, ')');
  if (!s) return 0;
  long long ut = 0, st = 0;
  /* fields after ") ": state(3) ... utime(14) stime(15) */
  sscanf(s + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld", &ut, &st);
  return ut + st;
}

static double own_cpu_ms(void) {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  return r.ru_utime.tv_sec * 1e3 + r.ru_utime.tv_usec / 1e3 + r.ru_stime.tv_sec * 1e3 + r.ru_stime.tv_usec / 1e3;
}

static double hist_pct(double q) {
  long long want = (long long)(q * hist_n), seen = 0;
  for (int us = 0; us < HIST_US; us++) {
    seen += hist[us];
    if (seen > want) return us / 1000.0;
  }
  return hist_max_us / 1000.0;
}

static void check_wait(void) {
  if (wait_for < 0 || recv_n < wait_for) return;
  wait_for = -1;
  printf("GOT recv=%lld last=%lld\n", recv_n, last_ns);
  fflush(stdout);
}

static void stat_line(void) {
  printf("STAT open=%lld failed=%lld closed=%lld recv=%lld pings=%lld last=%lld now=%lld\n", opened - closed_n, failed, closed_n, recv_n, pings, last_ns, now_ns());
  fflush(stdout);
}

static int more; /* `more` asked: the connect phase starts again */

static int on_command(void) {
  static char line[256];
  static int used;
  ssize_t n = read(0, line + used, sizeof line - 1 - used);
  if (n <= 0) return 0;
  used += (int)n;
  char *nl;
  while ((nl = memchr(line, '\n', used)) != NULL) {
    *nl = 0;
    if (strcmp(line, "stat") == 0) stat_line();
    else if (strncmp(line, "wait ", 5) == 0) { wait_for = atoll(line + 5); check_wait(); }
    else if (strcmp(line, "more") == 0) { target = nconns; more = 1; }
    else if (strcmp(line, "quit") == 0) return 0;
    else if (strcmp(line, "send") == 0) {
      int sent = 0;
      for (int i = 0; i < nconns && !sent; i++)
        if (conns[i].st == ST_OPEN) sent = write(conns[i].fd, bcast_frame, bcast_len) == bcast_len;
      printf(sent ? "SENT t=%lld\n" : "SENT none t=%lld\n", now_ns());
      fflush(stdout);
    }
    int rest = used - (int)(nl + 1 - line);
    memmove(line, nl + 1, rest);
    used = rest;
  }
  if (used == (int)sizeof line - 1) used = 0;
  return 1;
}

static const char *arg(int argc, char **argv, const char *name, const char *def) {
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], name) == 0) return argv[i + 1];
  return def;
}

int main(int argc, char **argv) {
  mode = arg(argc, argv, "--mode", "idle");
  port = atoi(arg(argc, argv, "--port", "0"));
  nconns = atoi(arg(argc, argv, "--conns", "1000"));
  target = atoll(arg(argc, argv, "--first", "0"));
  if (target <= 0 || target > nconns) target = nconns;
  concurrency = atoi(arg(argc, argv, "--concurrency", "256"));
  inflight = atoi(arg(argc, argv, "--inflight", "10"));
  msgsize = atoi(arg(argc, argv, "--size", "32"));
  server_pid = atoi(arg(argc, argv, "--server-pid", "0"));
  long long warmup_ms = atoll(arg(argc, argv, "--warmup", "1000"));
  long long window_ms = atoll(arg(argc, argv, "--ms", "5000"));
  long long deadline_ms = atoll(arg(argc, argv, "--deadline", "600000"));
  int echo = strcmp(mode, "echo") == 0;
  path = arg(argc, argv, "--path", echo ? "/" : "/bcast");
  const char *src_ip = arg(argc, argv, "--src", "127.0.0.1");
  if (port <= 0 || nconns <= 0 || inflight < 1 || inflight > 250 || msgsize < 1 || msgsize > 65535 || concurrency < 1) {
    fprintf(stderr, "usage: wsload --mode idle|echo --port P --conns N [--src 127.x.y.z] [--path /bcast] [--concurrency 256]\n"
                    "       [--inflight 10 --size 32 --warmup 1000 --ms 5000 --server-pid PID] [--deadline ms]\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  /* --src a,b,c: connection i binds to address i % count. Each address should carry well under
     half of the ~28,000 ephemeral ports: past that the kernel's port search in connect()
     grows long and the client, not the server, becomes the limit. */
  char srclist[1024];
  snprintf(srclist, sizeof srclist, "%s", src_ip);
  for (char *tok = strtok(srclist, ","); tok != NULL && nsrc < 64; tok = strtok(NULL, ",")) {
    memset(&srcs[nsrc], 0, sizeof srcs[0]);
    srcs[nsrc].sin_family = AF_INET;
    if (inet_pton(AF_INET, tok, &srcs[nsrc].sin_addr) != 1 || (ntohl(srcs[nsrc].sin_addr.s_addr) >> 24) != 127) {
      fprintf(stderr, "--src must be a loopback address, got %s\n", tok);
      return 2;
    }
    nsrc++;
  }
  if (nsrc == 0) { fprintf(stderr, "--src: no address\n"); return 2; }
  memset(&dst, 0, sizeof dst);
  dst.sin_family = AF_INET;
  dst.sin_port = htons((uint16_t)port);
  dst.sin_addr.s_addr = htonl(0x7f000001);
  upgrade_len = snprintf(upgrade, sizeof upgrade,
                         "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
                         path, port);
  bcast_len = masked_frame(bcast_frame, 0x1, NULL, 32);
  conns = calloc((size_t)nconns, sizeof *conns);
  if (!conns) die("calloc");
  if (echo) {
    frame_len = msgsize + (msgsize < 126 ? 6 : 8);
    frames = malloc((size_t)frame_len * inflight);
    for (int k = 0; k < inflight; k++) masked_frame(frames + (size_t)k * frame_len, 0x1, NULL, msgsize);
    sent_at = calloc((size_t)nconns * inflight, sizeof *sent_at);
    ring_head = calloc((size_t)nconns, sizeof *ring_head);
    ring_count = calloc((size_t)nconns, sizeof *ring_count);
    hist = calloc(HIST_US, sizeof *hist);
    if (!frames || !sent_at || !ring_head || !ring_count || !hist) die("calloc");
  }
  ep = epoll_create1(0);
  if (ep < 0) die("epoll_create1");
  if (!echo) {
    fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = UINT32_MAX};
    epoll_ctl(ep, EPOLL_CTL_ADD, 0, &ev);
  }
  long long t0 = now_ns(), last_progress = t0, ready_at = 0, window_start = 0, server0 = 0;
  double client0 = 0;
  long long recv0 = 0;
  fill_connects();
  struct epoll_event evs[1024];
  for (;;) {
    /* Connecting (or echo): wake every 50 ms for PROGRESS and the window; idle: only for
       events, and the deadline. */
    int timeout = 50;
    if (ready_at && !echo) {
      long long left = deadline_ms - (now_ns() - t0) / 1000000 + 1;
      timeout = left > 0x7fffffffLL ? 0x7fffffff : left < 0 ? 0 : (int)left;
    }
    int n = epoll_wait(ep, evs, 1024, timeout);
    long long t = now_ns();
    for (int k = 0; k < n; k++) {
      if (evs[k].data.u32 == UINT32_MAX) {
        if (!on_command()) goto out;
        continue;
      }
      on_event(evs[k].data.u32, evs[k].events, t);
    }
    check_wait();
    if (more) { more = 0; ready_at = 0; }
    fill_connects();
    if ((t - t0) / 1000000 > deadline_ms) {
      fprintf(stderr, "wsload: deadline of %lld ms reached\n", deadline_ms);
      goto out;
    }
    if (!ready_at && next_conn == target && pending == 0) {
      ready_at = t;
      if (!echo) {
        printf("READY open=%lld failed=%lld ms=%.1f\n", opened, failed, (t - t0) / 1e6);
        fflush(stdout);
      }
    } else if (!ready_at && !echo && t - last_progress > 200000000LL) {
      last_progress = t;
      printf("PROGRESS open=%lld failed=%lld ms=%.1f\n", opened, failed, (t - t0) / 1e6);
      fflush(stdout);
    }
    if (echo && ready_at) {
      if (opened == 0) { errno = ECONNREFUSED; die("no connection opened"); }
      if (!window_start && t - ready_at >= warmup_ms * 1000000LL) {
        window_start = t;
        counting = 1;
        recv0 = recv_n;
        server0 = server_pid ? proc_cpu_ticks(server_pid) : 0;
        client0 = own_cpu_ms();
      } else if (window_start && t - window_start >= window_ms * 1000000LL) {
        double ms = (t - window_start) / 1e6;
        long long server_ticks = server_pid ? proc_cpu_ticks(server_pid) - server0 : 0;
        printf("RESULT {\"mode\":\"echo\",\"ok\":true,\"failures\":%lld,\"ms\":%.1f,\"messages\":%lld,\"serverCpuMs\":%.1f,\"clientCpuMs\":%.1f,"
               "\"latency\":{\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f,\"samples\":%lld},\"loadGenerator\":\"wsload.c\"}\n",
               failed + closed_n, ms, recv_n - recv0, server_ticks * 10.0, own_cpu_ms() - client0, hist_pct(0.5), hist_pct(0.99),
               hist_max_us / 1000.0, hist_n);
        fflush(stdout);
        goto out;
      }
    }
  }
out:
  return 0;
}
