/* libsystemd's sd-login (Debian's libsystemd-dev): which user is in the active
   session on a seat, as systemd-logind records it. */
#include <systemd/sd-login.h>
