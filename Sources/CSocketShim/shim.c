#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <sys/socket.h>
#include "CSocketShim.h"

int gestured_accept_nonblocking(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int gestured_peer_credentials(int fd, int *pid, unsigned *uid, unsigned *gid) {
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    *pid = cred.pid; *uid = cred.uid; *gid = cred.gid;
    return 0;
}

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59  /* Linux 4.13 */
#endif

int gestured_peer_groups(int fd, unsigned *groups, int capacity) {
    socklen_t len = (socklen_t)(capacity * sizeof(gid_t));
    if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) == 0) return (int)(len / sizeof(gid_t));
    /* Too small: the kernel says how much room it needs. */
    if (errno == ERANGE) return (int)(len / sizeof(gid_t));
    return -1;
}
