/*
 * floor: the kernel's own cost of what a server does per idle connection (bench/c1m,
 * issue 31), so that the harness can state its targets against this machine, in the
 * same run. It opens --pairs loopback TCP connections (connect + accept, TCP_NODELAY, as a
 * server's sockets are), then for --rounds rounds:
 *   - writes --bytes bytes on the one end of every pair, one write(2) each (timed: the
 *     per-write cost, which on loopback includes the receiver's softirq work),
 *   - waits for them with epoll and reads each on the other end, one read(2) each (timed).
 * Prints one line: FLOOR {"pairs":..,"bytes":..,"writeUs":..,"readUs":..,"roundTripUs":..}
 * with the medians over rounds of µs per write, per read (epoll_wait included) and their
 * sum: the least a heartbeat can cost per connection (a 2-byte ping written, a pong read),
 * and, with --bytes 34, the least a broadcast of a 32-byte message costs per receiver.
 *
 *   cc -O2 -o floor bench/c1m/floor.c && ./floor --pairs 5000 --rounds 7 --bytes 2
 *
 * Needs 2 x --pairs descriptors; loopback only; libc and Linux (epoll) only.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static const char *arg(int argc, char **argv, const char *name, const char *def) {
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], name) == 0) return argv[i + 1];
  return def;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int pairs = atoi(arg(argc, argv, "--pairs", "5000"));
  int rounds = atoi(arg(argc, argv, "--rounds", "7"));
  int bytes = atoi(arg(argc, argv, "--bytes", "2"));
  if (pairs < 1 || rounds < 1 || rounds > 100 || bytes < 1 || bytes > 4096) {
    fprintf(stderr, "usage: floor [--pairs 5000] [--rounds 7] [--bytes 2]\n");
    return 2;
  }
  int one = 1;
  int lfd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000001)};
  socklen_t alen = sizeof a;
  if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof a) < 0 || listen(lfd, 4096) < 0 || getsockname(lfd, (struct sockaddr *)&a, &alen) < 0) {
    perror("listen");
    return 1;
  }
  int *cli = calloc(pairs, sizeof *cli), *srv = calloc(pairs, sizeof *srv);
  for (int i = 0; i < pairs; i++) {
    cli[i] = socket(AF_INET, SOCK_STREAM, 0);
    if (cli[i] < 0 || connect(cli[i], (struct sockaddr *)&a, sizeof a) < 0) { perror("connect"); return 1; }
    srv[i] = accept4(lfd, NULL, NULL, SOCK_NONBLOCK);
    if (srv[i] < 0) { perror("accept"); return 1; }
    setsockopt(cli[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(srv[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  int ep = epoll_create1(0);
  for (int i = 0; i < pairs; i++) {
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (unsigned)i};
    epoll_ctl(ep, EPOLL_CTL_ADD, srv[i], &ev);
  }
  char *msg = malloc(bytes), buf[8192];
  memset(msg, 0x61, bytes);
  double *w = calloc(rounds, sizeof *w), *r = calloc(rounds, sizeof *r);
  struct epoll_event evs[1024];
  for (int k = 0; k < rounds; k++) {
    double t0 = now_us();
    for (int i = 0; i < pairs; i++)
      if (write(cli[i], msg, bytes) != bytes) { perror("write"); return 1; }
    double t1 = now_us();
    int got = 0;
    while (got < pairs) {
      int n = epoll_wait(ep, evs, 1024, 1000);
      if (n <= 0) { fprintf(stderr, "floor: reads stalled at %d of %d\n", got, pairs); return 1; }
      for (int j = 0; j < n; j++) {
        ssize_t m = read(srv[evs[j].data.u32], buf, sizeof buf);
        if (m > 0) got++;
      }
    }
    double t2 = now_us();
    w[k] = (t1 - t0) / pairs;
    r[k] = (t2 - t1) / pairs;
  }
  qsort(w, rounds, sizeof *w, cmp);
  qsort(r, rounds, sizeof *r, cmp);
  double wm = w[rounds / 2], rm = r[rounds / 2];
  printf("FLOOR {\"pairs\":%d,\"bytes\":%d,\"rounds\":%d,\"writeUs\":%.3f,\"readUs\":%.3f,\"roundTripUs\":%.3f}\n", pairs, bytes, rounds, wm, rm, wm + rm);
  return 0;
}
