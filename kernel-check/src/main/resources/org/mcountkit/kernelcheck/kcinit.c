/*
 * kcinit: the /init of bin/kernel-check's --modules and --prune initramfs on the machines Debian 12
 * has no busybox-static for (machines.conf "init = kcinit"). It does what modules-init.sh and
 * prune-init.sh do with busybox, through plain system calls, and prints exactly their lines, so the
 * Java side reads either boot log the same way. Linked -static by the machine's cross gcc: the
 * initramfs holds no C library.
 *
 * The initramfs says which script it stands for: with /modules/order (the --modules one) it loads,
 * lists, traces and removes the modules; without, it prints available_filter_functions (--prune,
 * and a plain boot, which reads the ftrace-dump.sh lines it prints after them).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* syslog(2)'s actions (the kernel's SYSLOG_ACTION_*, which no user header names). */
enum { LOG_READ_ALL = 3, LOG_CONSOLE_LEVEL = 8, LOG_SIZE_BUFFER = 10 };

/* A whole file, NUL-terminated (tracefs files say size 0, so it reads to the end); NULL when unreadable. */
static char *slurp(const char *path, size_t *length)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return NULL;
    }
    size_t size = 0;
    size_t capacity = 65536;
    char *text = malloc(capacity + 1);
    for (;;) {
        if (text == NULL) {
            close(fd);
            return NULL;
        }
        if (size == capacity) {
            capacity *= 2;
            char *bigger = realloc(text, capacity + 1);
            if (bigger == NULL) {
                free(text);
            }
            text = bigger;
            continue;
        }
        ssize_t n = read(fd, text + size, capacity - size);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            int failed = n < 0;
            close(fd);
            if (failed) {
                free(text);
                return NULL;
            }
            break;
        }
        size += (size_t)n;
    }
    text[size] = '\0';
    if (length != NULL) {
        *length = size;
    }
    return text;
}

/* The shell's words of a file ($(cat FILE)): split at white space, in place; none when unreadable. */
static char **words(const char *path, size_t *count)
{
    *count = 0;
    char *text = slurp(path, NULL);
    if (text == NULL) {
        fprintf(stderr, "kcinit: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    char **list = malloc((strlen(text) / 2 + 1) * sizeof *list);
    if (list == NULL) {
        return NULL;
    }
    for (char *word = strtok(text, " \t\n"); word != NULL; word = strtok(NULL, " \t\n")) {
        list[(*count)++] = word;
    }
    return list;
}

/* echo TEXT >PATH: 0 when the file opened and took the whole line. */
static int echo(const char *text, const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        return -1;
    }
    size_t length = strlen(text);
    char *line = malloc(length + 2);
    int ok = line != NULL;
    if (ok) {
        memcpy(line, text, length);
        line[length] = '\n';
        ok = write(fd, line, length + 1) == (ssize_t)(length + 1);
        free(line);
    }
    return close(fd) == 0 && ok ? 0 : -1;
}

/* Calls FN for each line of TEXT (the last one even without its newline), in place; stops when FN says so. */
static void each_line(char *text, int (*fn)(const char *line, void *state), void *state)
{
    while (*text != '\0') {
        char *end = strchr(text, '\n');
        if (end != NULL) {
            *end = '\0';
        }
        int stop = fn(text, state);
        if (end != NULL) {
            *end = '\n';
        }
        if (stop || end == NULL) {
            return;
        }
        text = end + 1;
    }
}

static void mount_or_say(const char *source, const char *target, const char *type)
{
    if (mount(source, target, type, 0, NULL) != 0) {
        fprintf(stderr, "kcinit: mount -t %s %s: %s\n", type, target, strerror(errno));
    }
}

/*
 * Where the lines go. /dev/console, unless the kernel's command line sets kcinit_output=kmsg: a
 * machine whose only console QEMU shows is a boot console (sparc64's earlyprom, kept by
 * keep_bootcon) gets a dummy tty0 as /dev/console, and what init writes there reaches no log. Each
 * line then becomes one record of the kernel log, which every console prints, and as the kernel's
 * messages are whole records too, neither splits the other: the console is not quieted and the log
 * not printed again at the end. The machine's command line also needs printk.devkmsg=on, or the
 * kernel drops all but the first ten lines every five seconds.
 */
static int kmsg = -1;

/* The line being written to the kernel log, sent as one record at its newline. */
static char kmsg_line[960];
static size_t kmsg_length;

static void kmsg_flush(void)
{
    if (kmsg_length > 0) {
        // A failed write has no other way out to be told by; the boot log misses the line.
        ssize_t written = write(kmsg, kmsg_line, kmsg_length);
        (void)written;
    }
    kmsg_length = 0;
}

static ssize_t kmsg_write(void *cookie, const char *buffer, size_t size)
{
    (void)cookie;
    for (size_t i = 0; i < size; i++) {
        if (buffer[i] == '\n') {
            kmsg_flush();
            continue;
        }
        if (kmsg_length == sizeof kmsg_line) {
            kmsg_flush();
        }
        kmsg_line[kmsg_length++] = buffer[i];
    }
    return (ssize_t)size;
}

/* stdout and stderr to the kernel log when the command line asks for it; 0 unless that fails. */
static int output_to_kmsg(void)
{
    const char *output = getenv("kcinit_output");
    if (output == NULL || strcmp(output, "kmsg") != 0) {
        return 0;
    }
    // Its own node: --prune's initramfs mounts no devtmpfs.
    if (mknod("/kcinit-kmsg", S_IFCHR | 0600, makedev(1, 11)) != 0 && errno != EEXIST) {
        return -1;
    }
    int fd = open("/kcinit-kmsg", O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    cookie_io_functions_t io = {.write = kmsg_write};
    FILE *log = fopencookie(NULL, "w", io);
    if (log == NULL) {
        close(fd);
        return -1;
    }
    setvbuf(log, NULL, _IOLBF, 0);
    // Set only now: the console is left loud and the log unprinted only once lines go to the log.
    kmsg = fd;
    stdout = log;
    stderr = log;
    return 0;
}

/* dmesg -n 1: only emergency messages reach the console, so the kernel's do not split these lines. */
static void quiet_console(void)
{
    if (kmsg >= 0) {
        return;
    }
    if (klogctl(LOG_CONSOLE_LEVEL, NULL, 1) != 0) {
        fprintf(stderr, "kcinit: dmesg -n 1: %s\n", strerror(errno));
    }
}

/* A file system mounted at TARGET, on LOOP (an attached loop device's descriptor) or on none (-1). */
struct mounted {
    const char *target;
    int loop;
};

/* A free loop device (/dev/loop-control) with IMAGE attached; its descriptor, -1 on failure. */
static int attach_loop(const char *image, int readonly, char *device, size_t size)
{
    int control = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (control < 0) {
        return -1;
    }
    int number = ioctl(control, LOOP_CTL_GET_FREE);
    close(control);
    if (number < 0) {
        return -1;
    }
    snprintf(device, size, "/dev/loop%d", number);
    int mode = readonly ? O_RDONLY : O_RDWR;
    // A file opened read-only gives a read-only loop device.
    int file = open(image, mode | O_CLOEXEC);
    int loop = open(device, mode | O_CLOEXEC);
    int attached = file >= 0 && loop >= 0 && ioctl(loop, LOOP_SET_FD, file) == 0;
    if (file >= 0) {
        close(file);
    }
    if (!attached) {
        if (loop >= 0) {
            close(loop);
        }
        return -1;
    }
    return loop;
}

/* mount -t TYPE -o loop[,ro] IMAGE TARGET: 0 when mounted; the loop device is let go when not. */
static int mount_image(struct mounted *m, const char *image, const char *type, int readonly, const char *target)
{
    char device[32];
    m->target = target;
    m->loop = attach_loop(image, readonly, device, sizeof device);
    if (m->loop < 0) {
        return -1;
    }
    if (mount(device, target, type, readonly ? MS_RDONLY : 0, NULL) != 0) {
        ioctl(m->loop, LOOP_CLR_FD, 0);
        close(m->loop);
        return -1;
    }
    return 0;
}

/* mount -t TYPE none TARGET, a file system without a device. */
static int mount_none(struct mounted *m, const char *type, const char *target)
{
    m->target = target;
    m->loop = -1;
    return mount("none", target, type, 0, NULL);
}

/* umount TARGET, then the loop device is free again. */
static int unmount(struct mounted *m)
{
    int ok = umount(m->target) == 0;
    if (m->loop >= 0) {
        ok &= ioctl(m->loop, LOOP_CLR_FD, 0) == 0;
        close(m->loop);
    }
    return ok ? 0 : -1;
}

/* cat PATH >/dev/null: reads it through the file system. */
static int cat(const char *path)
{
    char *text = slurp(path, NULL);
    free(text);
    return text != NULL ? 0 : -1;
}

/* ls DIR >/dev/null: reads every entry of the directory. */
static int ls(const char *path)
{
    DIR *dir = opendir(path);
    if (dir == NULL) {
        return -1;
    }
    errno = 0;
    while (readdir(dir) != NULL) {
    }
    int failed = errno != 0;
    return closedir(dir) == 0 && !failed ? 0 : -1;
}

/* modules-init.sh's use_* functions: each mounts and uses an image of a file system (or configfs). */
static int use_iso(void)
{
    struct mounted m;
    return mount_image(&m, "/images/iso.img", "iso9660", 1, "/mnt") == 0 && cat("/mnt/hello.txt") == 0
            && unmount(&m) == 0 ? 0 : -1;
}

static int use_vfat(void)
{
    struct mounted m;
    return mount_image(&m, "/images/fat.img", "vfat", 0, "/mnt") == 0 && echo("x", "/mnt/x.txt") == 0
            && ls("/mnt") == 0 && unmount(&m) == 0 ? 0 : -1;
}

static int use_msdos(void)
{
    struct mounted m;
    return mount_image(&m, "/images/fat.img", "msdos", 0, "/mnt") == 0 && ls("/mnt") == 0 && unmount(&m) == 0
            ? 0 : -1;
}

static int use_ext4(void)
{
    struct mounted m;
    if (mount_image(&m, "/images/ext4.img", "ext4", 0, "/mnt") != 0 || cat("/mnt/hello.txt") != 0
            || echo("x", "/mnt/x.txt") != 0) {
        return -1;
    }
    sync();
    return unmount(&m);
}

static int use_configfs(void)
{
    struct mounted m;
    return mount_none(&m, "configfs", "/cfg") == 0 && ls("/cfg") == 0 && unmount(&m) == 0 ? 0 : -1;
}

/* Runs kcweak's traced functions: its parameter's setter calls them. */
static int use_kcweak(void)
{
    return echo("1", "/sys/module/kcweak/parameters/poke");
}

/* The names /modules/uses gives after each module's colon (Initramfs.MODULE_USES). */
static const struct use {
    const char *name;
    int (*run)(void);
} USES[] = {
    {"use_iso", use_iso},
    {"use_vfat", use_vfat},
    {"use_msdos", use_msdos},
    {"use_ext4", use_ext4},
    {"use_configfs", use_configfs},
    {"use_kcweak", use_kcweak},
};

/* insmod /modules/NAME.ko: init_module with the file's bytes, as busybox's insmod loads one. */
static int insmod(const char *name, int say_why)
{
    char path[256];
    snprintf(path, sizeof path, "/modules/%s.ko", name);
    size_t size;
    char *image = slurp(path, &size);
    int loaded = image != NULL && syscall(SYS_init_module, image, (unsigned long)size, "") == 0;
    if (!loaded && say_why) {
        fprintf(stderr, "insmod: can't insert '%s': %s\n", path, strerror(errno));
    }
    free(image);
    return loaded;
}

/* " [NAME]", how available_filter_functions ends a module's lines, and how many lines end so. */
struct listed {
    char suffix[128];
    size_t count;
};

static int count_listed(const char *line, void *state)
{
    struct listed *l = state;
    size_t length = strlen(line);
    size_t suffix = strlen(l->suffix);
    if (length >= suffix && strcmp(line + length - suffix, l->suffix) == 0) {
        l->count++;
    }
    return 0;
}

/* The trace buffer's lines that are not comments: counted, or the first two printed as samples. */
struct traced {
    const char *module;
    size_t count;
    int print;
};

static int count_traced(const char *line, void *state)
{
    struct traced *t = state;
    if (line[0] == '#') {
        return 0;
    }
    if (t->print) {
        printf("km sample %s %s\n", t->module, line);
    }
    return ++t->count == 2 && t->print;
}

static const struct use *use_named(const char *name)
{
    for (size_t i = 0; i < sizeof USES / sizeof USES[0]; i++) {
        if (strcmp(USES[i].name, name) == 0) {
            return &USES[i];
        }
    }
    return NULL;
}

/* One MODULE:USE pair: trace the module's functions while USE runs, then print what was traced. */
static void trace_use(char *pair)
{
    char *colon = strchr(pair, ':');
    const char *use = colon != NULL ? colon + 1 : pair;
    if (colon != NULL) {
        *colon = '\0';
    }
    const char *module = pair;
    char filter[160];
    snprintf(filter, sizeof filter, ":mod:%s", module);
    echo("", "/t/trace");
    if (echo(filter, "/t/set_ftrace_filter") == 0) {
        echo("function", "/t/current_tracer");
        const struct use *u = use_named(use);
        if (u == NULL) {
            fprintf(stderr, "kcinit: /modules/uses: no use named %s (for %s)\n", use, module);
        }
        if (u == NULL || u->run() != 0) {
            printf("km use-failed %s\n", module);
        }
        echo("0", "/t/tracing_on");
    } else {
        printf("km filter-failed %s\n", module);
    }
    // Read before the tracer changes: setting a tracer empties the buffer.
    char *trace = slurp("/t/trace", NULL);
    struct traced t = {module, 0, 0};
    if (trace != NULL) {
        each_line(trace, count_traced, &t);
    }
    printf("km traced %s %zu\n", module, t.count);
    if (trace != NULL) {
        t.count = 0;
        t.print = 1;
        each_line(trace, count_traced, &t);
    }
    free(trace);
    echo("nop", "/t/current_tracer");
    echo("", "/t/set_ftrace_filter");
    echo("1", "/t/tracing_on");
}

static int count_nonempty(const char *line, void *state)
{
    if (line[0] != '\0') {
        ++*(size_t *)state;
    }
    return 0;
}

/* dmesg | sed 's/^/kmsg /': the kernel log, each line's <level> left out as busybox's dmesg does. */
static void print_kernel_log(void)
{
    if (kmsg >= 0) {
        return;
    }
    int size = klogctl(LOG_SIZE_BUFFER, NULL, 0);
    if (size < 16 * 1024) {
        size = 16 * 1024;
    }
    char *log = malloc((size_t)size);
    int length = log != NULL ? klogctl(LOG_READ_ALL, log, size) : -1;
    if (length < 0) {
        fprintf(stderr, "kcinit: dmesg: %s\n", strerror(errno));
        free(log);
        return;
    }
    char last = '\n';
    for (int i = 0; i < length;) {
        if (last == '\n' && log[i] == '<') {
            while (i < length && log[i++] != '>') {
            }
            continue;
        }
        if (last == '\n') {
            fputs("kmsg ", stdout);
        }
        last = log[i++];
        putchar(last);
    }
    if (last != '\n') {
        putchar('\n');
    }
    free(log);
}

/* One line of a file, after the tag passed as the state. */
static int print_tagged(const char *line, void *tag)
{
    printf("%s %s\n", (const char *)tag, line);
    return 0;
}

/* ftrace-dump.sh: what ftrace lists now, each file's lines tagged (a file the kernel lacks prints none). */
static void ftrace_dump(void)
{
    static const struct {
        const char *path;
        const char *tag;
    } files[] = {
        {"/t/available_filter_functions", "kf"},
        {"/t/available_filter_functions_addrs", "ka"},
        {"/t/dyn_ftrace_total_info", "kd"},
        {"/proc/modules", "kp"},
    };
    printf("kernel-check: functions begin\n");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *text = slurp(files[i].path, NULL);
        if (text != NULL) {
            each_line(text, print_tagged, (void *)files[i].tag);
        }
        free(text);
    }
    printf("kernel-check: functions end\n");
}

/* modules-init.sh. */
static void modules(void)
{
    mount_or_say("proc", "/proc", "proc");
    mount_or_say("sysfs", "/sys", "sysfs");
    mount_or_say("devtmpfs", "/dev", "devtmpfs");
    mount_or_say("nodev", "/t", "tracefs");
    quiet_console();
    printf("kernel-check: modules begin\n");
    size_t count;
    char **order = words("/modules/order", &count);
    const char **loaded = calloc(count + 1, sizeof *loaded);
    size_t nloaded = 0;
    // A module whose soft dependency (libcrc32c's "pre: crc32c", an alias) came later in the order
    // fails once; a second pass loads it.
    char *failed = calloc(count + 1, 1);
    for (size_t i = 0; i < count; i++) {
        if (insmod(order[i], 0)) {
            printf("km loaded %s\n", order[i]);
            loaded[nloaded++] = order[i];
        } else {
            failed[i] = 1;
        }
    }
    for (size_t i = 0; i < count; i++) {
        if (!failed[i]) {
            continue;
        }
        if (insmod(order[i], 1)) {
            printf("km loaded %s\n", order[i]);
            loaded[nloaded++] = order[i];
        } else {
            printf("km insmod-failed %s\n", order[i]);
        }
    }
    ftrace_dump();
    char *functions = slurp("/t/available_filter_functions", NULL);
    for (size_t i = 0; i < count; i++) {
        struct listed l = {"", 0};
        snprintf(l.suffix, sizeof l.suffix, " [%s]", order[i]);
        if (functions != NULL) {
            each_line(functions, count_listed, &l);
        }
        printf("km listed %s %zu\n", order[i], l.count);
    }
    free(functions);
    size_t npairs;
    char **pairs = words("/modules/uses", &npairs);
    for (size_t i = 0; i < npairs; i++) {
        trace_use(pairs[i]);
    }
    // Removed in the reverse of the order they loaded in (a module the second pass loaded holds the
    // one loaded before it: libcrc32c holds crc32c_generic).
    while (nloaded > 0) {
        const char *m = loaded[--nloaded];
        if (syscall(SYS_delete_module, m, O_NONBLOCK | O_EXCL) != 0) {
            fprintf(stderr, "rmmod: can't unload module '%s': %s\n", m, strerror(errno));
            printf("km rmmod-failed %s\n", m);
        }
    }
    size_t left = 0;
    char *proc_modules = slurp("/proc/modules", NULL);
    if (proc_modules != NULL) {
        each_line(proc_modules, count_nonempty, &left);
    }
    free(proc_modules);
    printf("km left %zu\n", left);
    printf("kernel-check: modules end\n");
    print_kernel_log();
}

/* prune-init.sh. */
static void filter_functions(void)
{
    mount_or_say("proc", "/proc", "proc");
    mount_or_say("nodev", "/t", "tracefs");
    quiet_console();
    printf("kernel-check: available_filter_functions begin\n");
    char *functions = slurp("/t/available_filter_functions", NULL);
    if (functions == NULL) {
        fprintf(stderr, "kcinit: /t/available_filter_functions: %s\n", strerror(errno));
    } else {
        each_line(functions, print_tagged, "aff");
    }
    free(functions);
    printf("kernel-check: available_filter_functions end\n");
    ftrace_dump();
}

int main(void)
{
    // It mounts, loads modules and reboots: on a running system, not as its first process, never.
    if (getpid() != 1) {
        fprintf(stderr, "kcinit: not process 1: it is an initramfs's /init, for bin/kernel-check's QEMU boots\n");
        return 2;
    }
    // Whole lines reach the console in order, between the kernel's and stderr's.
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (output_to_kmsg() != 0) {
        fprintf(stderr, "kcinit: kcinit_output=kmsg: %s\n", strerror(errno));
    }
    if (access("/modules/order", F_OK) == 0) {
        modules();
    } else {
        filter_functions();
    }
    fflush(stdout);
    // reboot -f: QEMU runs with -no-reboot, so the machine's reset ends it. Were init to return
    // instead, the kernel would panic.
    sync();
    reboot(RB_AUTOBOOT);
    fprintf(stderr, "kcinit: reboot: %s\n", strerror(errno));
    return 1;
}
