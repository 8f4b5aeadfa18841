/* Linux-only headers the Glibc module does not cover: the event loop's epoll,
 * timerfd and signalfd, inotify for the config file, and malloc's statistics for
 * `gesturectl check --repeat-loads`. Headers only; nothing to link. */
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <malloc.h>
