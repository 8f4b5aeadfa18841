#ifndef GESTURED_CSOCKETSHIM_H
#define GESTURED_CSOCKETSHIM_H
/* The few calls Glibc's Swift module hides behind _GNU_SOURCE or does not
   cover. They are defined in shim.c, which alone sees _GNU_SOURCE, so this
   header does not change any system type Swift already imported. */

/* accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC. */
int gestured_accept_nonblocking(int fd);

/* SO_PEERCRED: 0 and the peer's pid, uid, gid; -1 and errno otherwise. */
int gestured_peer_credentials(int fd, int *pid, unsigned *uid, unsigned *gid);

/* SO_PEERGROUPS: the peer's supplementary groups when it connected. Fills up to
   `capacity` gids and returns how many the peer has (more than `capacity`: call
   again with room for that many); -1 and errno otherwise. */
int gestured_peer_groups(int fd, unsigned *groups, int capacity);
#endif
