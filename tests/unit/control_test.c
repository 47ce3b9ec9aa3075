/* control_test.c - the control protocol's request parser and the private
 * directory's checks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "control/protocol.h"
#include "control/rundir.h"
#include "tap.h"

static int parse(const char *text, struct lk_control_request *r)
{
	static char line[LK_CONTROL_LINE_MAX];
	snprintf(line, sizeof(line), "%s", text);
	return lk_control_parse(line, r);
}

static void requests(void)
{
	struct lk_control_request r;
	ok(parse("identify", &r) == 0 && r.cmd == LK_CTL_IDENTIFY, "identify");
	ok(parse("mark frame 1", &r) == 0 && r.cmd == LK_CTL_MARK && !strcmp(r.text, "frame 1"),
	   "mark keeps the rest of the line, spaces included");
	ok(parse("snapshot before", &r) == 0 && r.cmd == LK_CTL_SNAPSHOT &&
	   !strcmp(r.text, "before"), "snapshot");
	ok(parse("mark", &r) == LK_EUSAGE, "mark without text");
	ok(parse("mark a\tb", &r) == LK_EUSAGE, "mark with a control character");
	ok(parse("mark caf\xc3\xa9", &r) == 0, "UTF-8 text is fine");
	char big[LK_CONTROL_TEXT_MAX + 10];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	char line[sizeof(big) + 8];
	snprintf(line, sizeof(line), "mark %s", big);
	ok(parse(line, &r) == LK_EUSAGE && strstr(lk_error_detail(), "at most 495"), "text too long");
	ok(parse("start", &r) == 0 && r.cmd == LK_CTL_START, "start");
	ok(parse("stop", &r) == 0 && r.cmd == LK_CTL_STOP, "stop");
	ok(parse("stop now", &r) == LK_EUSAGE, "stop takes no argument");
	ok(parse("check", &r) == 0 && r.cmd == LK_CTL_CHECK && !r.json && !r.pid, "check");
	ok(parse("check json 42", &r) == 0 && r.json && r.pid == 42, "check json PID");
	ok(parse("check 42 text", &r) == 0 && !r.json && r.pid == 42, "check PID text");
	ok(parse("check 1 2", &r) == LK_EUSAGE, "check with two pids");
	ok(parse("check -5", &r) == LK_EUSAGE, "check with a negative pid");
	ok(parse("check why full color top=3 42", &r) == 0 && r.why && r.full && r.color &&
	   r.top_given && r.top == 3 && r.pid == 42, "check with the text's options");
	ok(parse("check top=0", &r) == 0 && r.top_given && r.top == 0 && !r.full && !r.color,
	   "check top=0: every site");
	ok(parse("check", &r) == 0 && !r.top_given, "check without top");
	ok(parse("check top=", &r) == LK_EUSAGE, "check top= without a number");
	ok(parse("check top=-1", &r) == LK_EUSAGE, "check with a negative top");
	ok(parse("", &r) == LK_EUSAGE, "empty request");
	ok(parse("reboot", &r) == LK_EUSAGE && strstr(lk_error_detail(), "unknown request"),
	   "unknown request");
}

static void rundir(void)
{
	char tmp[] = "/tmp/lk-rundir-XXXXXX", buf[256];
	ok(mkdtemp(tmp) != NULL, "scratch directory");
	setenv("XDG_RUNTIME_DIR", tmp, 1);
	ok(lk_rundir_open(buf, sizeof(buf), 0) < 0, "absent and not created: an error");
	ok(lk_rundir_open(buf, sizeof(buf), 1) == 0, "created");
	struct stat st;
	ok(stat(buf, &st) == 0 && (st.st_mode & 07777) == 0700, "mode 0700");
	chmod(buf, 0750);
	ok(lk_rundir_open(buf, sizeof(buf), 1) == -EPERM &&
	   strstr(lk_error_detail(), "accessible by other users"), "open to the group: refused");
	rmdir(buf);
	char target[300];
	snprintf(target, sizeof(target), "%s/elsewhere", tmp);
	mkdir(target, 0700);
	ok(symlink(target, buf) == 0, "a symbolic link in its place");
	ok(lk_rundir_open(buf, sizeof(buf), 1) == -ENOTDIR, "a link is refused");
	unlink(buf);
	rmdir(target);
	rmdir(tmp);
	unsetenv("XDG_RUNTIME_DIR");
	ok(lk_rundir_path(buf, sizeof(buf)) == 0 && !strncmp(buf, "/tmp/leakscope-", 15),
	   "without XDG_RUNTIME_DIR: /tmp/leakscope-UID");
}

int main(void)
{
	requests();
	rundir();
	return tap_done();
}
