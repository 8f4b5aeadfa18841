/* Linux-only headers the Glibc module does not cover: the event loop's epoll,
 * timerfd and signalfd, and inotify for the config file. Headers only; nothing to link. */
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
