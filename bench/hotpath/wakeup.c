/*
 * The floor under a client's CPU per streamed event when every event arrives on its own: a receiver
 * that does nothing but wait in epoll_wait, read what arrived and take a clock reading, fed by a
 * sender process over loopback TCP the way `simulate --profile deterministic` streams (STREAMS
 * connections, each an event of SIZE bytes every STREAMS/RATE seconds, out of step with the others).
 * Prints the receiver process's CPU (getrusage: user and system) per event and its wake-ups a second.
 * What a real client adds on top (HTTP framing, JSON, the record for Kafka) is the rest of its figure.
 *
 *   gcc -O2 -o /tmp/wakeup bench/hotpath/wakeup.c && /tmp/wakeup [RATE=1000] [STREAMS=20] [SECONDS=30] [SIZE=230]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static double cpu_s(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

static double sys_s(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv) {
    double rate = argc > 1 ? atof(argv[1]) : 1000;
    int streams = argc > 2 ? atoi(argv[2]) : 20;
    double seconds = argc > 3 ? atof(argv[3]) : 30;
    int size = argc > 4 ? atoi(argv[4]) : 230;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof addr;
    if (bind(listener, (struct sockaddr *)&addr, len) || listen(listener, streams) ||
        getsockname(listener, (struct sockaddr *)&addr, &len)) {
        perror("listen");
        return 1;
    }
    pid_t sender = fork();
    if (sender == 0) {  // the server's side: STREAMS connections, one event each in turn
        int *fds = malloc(sizeof(int) * streams);
        for (int i = 0; i < streams; i++) {
            fds[i] = socket(AF_INET, SOCK_STREAM, 0);
            int one = 1;
            setsockopt(fds[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            if (connect(fds[i], (struct sockaddr *)&addr, sizeof addr)) _exit(1);
        }
        char *event = malloc(size);
        memset(event, 'x', size);
        long long start = now_ns() + 500000000LL, gap = (long long)(1e9 / rate);
        for (long long k = 0; k < (long long)(rate * seconds); k++) {
            long long due = start + k * gap;
            struct timespec t = {due / 1000000000LL, due % 1000000000LL};
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
            if (write(fds[k % streams], event, size) != size) _exit(1);
        }
        _exit(0);
    }
    int ep = epoll_create1(0);
    for (int i = 0; i < streams; i++) {
        int fd = accept(listener, NULL, NULL);
        struct epoll_event e = {.events = EPOLLIN, .data.fd = fd};
        epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e);
    }
    char buf[65536];
    struct epoll_event ready[64];
    long long bytes = 0, wakeups = 0, total = (long long)(rate * seconds) * size;
    volatile long long stamp = 0;  // kept, so that the compiler keeps the clock readings
    double cpu0 = cpu_s(), sys0 = sys_s();
    long long t0 = now_ns();
    while (bytes < total) {
        int n = epoll_wait(ep, ready, 64, 5000);
        if (n <= 0) break;
        wakeups++;
        for (int i = 0; i < n; i++) {
            ssize_t r = read(ready[i].data.fd, buf, sizeof buf);
            if (r > 0) {
                bytes += r;
                stamp = now_ns();  // the client's clock reading per read
            }
        }
    }
    (void)stamp;
    double cpu = cpu_s() - cpu0, sys = sys_s() - sys0, wall = (now_ns() - t0) / 1e9;
    long long events = bytes / size;
    waitpid(sender, NULL, 0);
    printf("floor: %lld events in %.1f s (%.0f/s), %lld wake-ups (%.0f/s), receiver CPU %.3f s: %.1f us per event "
           "(%.0f %% kernel)\n",
           events, wall, events / wall, wakeups, wakeups / wall, cpu, cpu / events * 1e6, 100 * sys / cpu);
    return 0;
}
