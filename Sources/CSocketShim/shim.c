#define _GNU_SOURCE
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

#include <sys/inotify.h>

int gestured_inotify_init(void) {
    return inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
}

int gestured_inotify_watch_directory(int fd, const char *directory) {
    return inotify_add_watch(fd, directory, IN_CLOSE_WRITE | IN_MOVED_TO | IN_ONLYDIR);
}
