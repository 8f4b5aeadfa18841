/*
 * What it costs a publisher to hand one line to N subscribers, each a separate
 * SCHED_BATCH process blocked in read(2) (as `gesturectl subscribe` is), per
 * round: N sendmsg(2) on N Unix stream sockets (what gestured does), the same N
 * sends in one io_uring_enter(2) (when liburing is there), or one futex wake of
 * all N waiting on a shared word (a lower bound for any shared-memory scheme:
 * only the wake-ups, nothing copied). Prints the publisher's own CPU ticks.
 *
 * Usage: fanout sendmsg|uring|futex N ROUNDS INTERVAL_US
 * Run by Tests/vm/scenarios/bench_fanout.sh in the guest; see BENCHMARKS.md.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if __has_include(<liburing.h>)
#include <liburing.h>
#define HAVE_URING 1
#endif

enum { MAX_READERS = 64, LINE = 256 };

static void reader(int fd, int futex, _Atomic unsigned *word) {
    struct sched_param sp = {0};
    sched_setscheduler(0, SCHED_BATCH, &sp);
    if (futex) {
        unsigned seen = 0;
        for (;;) {
            unsigned v = atomic_load(word);
            if (v == 0xffffffffu) _exit(0);
            if (v == seen) { syscall(SYS_futex, word, FUTEX_WAIT, seen, NULL, NULL, 0); continue; }
            seen = v;
        }
    }
    char buf[65536];
    while (read(fd, buf, sizeof buf) > 0) {}
    _exit(0);
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: fanout sendmsg|uring|futex N ROUNDS INTERVAL_US\n"); return 2; }
    const char *mode = argv[1];
    int futex = strcmp(mode, "futex") == 0, uring = strcmp(mode, "uring") == 0;
    int n = atoi(argv[2]), rounds = atoi(argv[3]), interval = atoi(argv[4]);
    if (n < 1 || n > MAX_READERS || rounds < 1 || interval < 0) { fprintf(stderr, "fanout: bad arguments\n"); return 2; }
#ifndef HAVE_URING
    if (uring) { printf("%s n=%d: not built (no liburing)\n", mode, n); return 0; }
#else
    struct io_uring ring;
    if (uring && io_uring_queue_init(MAX_READERS, &ring, 0) < 0) { printf("%s: io_uring unavailable\n", mode); return 0; }
#endif
    _Atomic unsigned *word = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int fds[MAX_READERS];
    pid_t pids[MAX_READERS];
    for (int i = 0; i < n; i++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) { perror("socketpair"); return 1; }
        pid_t p = fork();
        if (p == 0) { close(sv[0]); reader(sv[1], futex, word); }
        close(sv[1]);
        fds[i] = sv[0];
        pids[i] = p;
    }
    char line[LINE];
    memset(line, 'x', sizeof line);
    line[LINE - 1] = '\n';
    struct iovec iov[MAX_READERS];
    struct msghdr msg[MAX_READERS];
    for (int i = 0; i < n; i++) {
        iov[i] = (struct iovec){ line, sizeof line };
        memset(&msg[i], 0, sizeof msg[i]);
        msg[i].msg_iov = &iov[i];
        msg[i].msg_iovlen = 1;
    }
    struct tms t0, t1;
    times(&t0);
    for (int r = 0; r < rounds; r++) {
        if (futex) {
            atomic_fetch_add(word, 1);
            syscall(SYS_futex, word, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
        } else if (!uring) {
            for (int i = 0; i < n; i++) sendmsg(fds[i], &msg[i], MSG_DONTWAIT | MSG_NOSIGNAL);
        } else {
#ifdef HAVE_URING
            for (int i = 0; i < n; i++) {
                struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
                io_uring_prep_sendmsg(sqe, fds[i], &msg[i], MSG_DONTWAIT | MSG_NOSIGNAL);
                sqe->user_data = (unsigned)i;
            }
            io_uring_submit(&ring);
            struct io_uring_cqe *cqe;
            unsigned head, seen = 0;
            io_uring_for_each_cqe(&ring, head, cqe) seen++;
            io_uring_cq_advance(&ring, seen);
#endif
        }
        struct timespec ts = { interval / 1000000, (interval % 1000000) * 1000L };
        nanosleep(&ts, NULL);
    }
    times(&t1);
    printf("%-8s %2d subscribers, %d rounds: publisher %ld ticks (%ld user, %ld sys)\n", mode, n, rounds,
           (long)(t1.tms_utime + t1.tms_stime - t0.tms_utime - t0.tms_stime),
           (long)(t1.tms_utime - t0.tms_utime), (long)(t1.tms_stime - t0.tms_stime));
    if (futex) {
        atomic_store(word, 0xffffffffu);
        syscall(SYS_futex, word, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
    }
    for (int i = 0; i < n; i++) close(fds[i]);
    for (int i = 0; i < n; i++) waitpid(pids[i], NULL, 0);
    return 0;
}
