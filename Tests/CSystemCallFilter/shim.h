#ifndef CSYSTEMCALLFILTER_SHIM_H
#define CSYSTEMCALLFILTER_SHIM_H
#ifdef __linux__
#include <stddef.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/// The number of the faccessat2 system call (Linux 5.8), which glibc 2.33 and later makes for `faccessat`.
static const long csystemcallfilter_faccessat2 = SYS_faccessat2;
/// The numbers of the clone3 (Linux 5.3) and clone system calls, which glibc's `pthread_create` makes (clone
/// when clone3 fails with ENOSYS or is refused).
static const long csystemcallfilter_clone3 = SYS_clone3;
static const long csystemcallfilter_clone = SYS_clone;

/// Makes the system call `number` fail with `error`, without being made, on the calling thread (and the
/// threads it starts from then on), as a container's sandbox does for a call its seccomp profile does not
/// allow: a seccomp filter (https://www.kernel.org/doc/html/latest/userspace-api/seccomp_filter.html), set
/// after the thread's no_new_privs, which lets a process without privileges set one. `prctl` is variadic,
/// which Swift cannot call. Returns 0, or -1 with errno set.
static inline int csystemcallfilter_fail_on_this_thread(long number, int error) {
    struct sock_filter instructions[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)number, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned int)error & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {sizeof instructions / sizeof instructions[0], instructions};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program);
}
#endif
#endif
