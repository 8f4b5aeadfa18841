/* Linux-only headers the Glibc module does not cover: the event loop's epoll,
 * timerfd and signalfd, inotify for the config file, malloc's statistics for
 * `gesturectl check --repeat-loads`, and prctl (variadic, so Swift cannot call it)
 * for `gesturectl lisgd`, and stdout's stdio buffer, which Swift 6 cannot name.
 * Headers only; nothing to link. */
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <errno.h>

/* Asks the kernel to send `sig` to this process when its parent exits
 * (PR_SET_PDEATHSIG), as lisgd does: a hook that is stopped takes it along. */
static inline int gestured_set_parent_death_signal(int sig) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0UL, 0UL, 0UL);
}

/* Sets the process's name as `ps`, `pgrep` and `pkill` match it (PR_SET_NAME,
 * at most 15 bytes). */
static inline int gestured_set_process_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

/* Writes out what stdio holds for stdout; 0, or the errno of the write that
 * failed (a full disk, a closed descriptor). */
static inline int gestured_flush_stdout(void) {
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) return errno ? errno : EIO;
    return 0;
}
