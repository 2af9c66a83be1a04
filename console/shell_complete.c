/*
 * shell_complete.c - what Tab offers: command names for the first word,
 * pseudofs paths for the others (as bash does for `cat /sys/k<Tab>`).
 *
 * The line editor hands over the word before the cursor and takes back
 * the candidates, each a whole replacement for that word, one a line;
 * a directory ends in '/', so completing into it can go on at once.
 */
#include "kernel.h"
#include "shell.h"
#include "string.h"
#include "line_editor.h"

struct candidates {
	char *out;
	size_t size, len;
	int count;
};

static void add(struct candidates *c, const char *dir, size_t dirlen,
		const char *name, size_t namelen)
{
	if (c->len + dirlen + namelen + 2 > c->size)
		return;		/* no room: offer fewer */
	memcpy(c->out + c->len, dir, dirlen);
	memcpy(c->out + c->len + dirlen, name, namelen);
	c->len += dirlen + namelen;
	c->out[c->len++] = '\n';
	c->out[c->len] = '\0';
	c->count++;
}

static void complete_command(struct candidates *c, const char *word, size_t n)
{
	const char *name;

	for (size_t i = 0; (name = shell_command_name(i)); i++)
		if (strncmp(name, word, n) == 0)
			add(c, "", 0, name, strlen(name));
}

/*
 * "/sys/kernel/tr" -> list "/sys/kernel/" and keep the entries that
 * start with "tr".  ls prints one entry a line, directories with '/'.
 */
static void complete_path(struct candidates *c, const char *word, size_t n)
{
	static char listing[COMPLETIONS_MAX];
	char dir[PSEUDOFS_PATH_MAX], path[PSEUDOFS_PATH_MAX];
	const char *base = word, *entry;
	struct seq_buf s;

	for (size_t i = 0; i < n; i++)
		if (word[i] == '/')
			base = word + i + 1;
	if ((size_t)(base - word) >= sizeof(dir))
		return;
	memcpy(dir, word, base - word);
	dir[base - word] = '\0';
	if (shell_resolve_path(dir[0] ? dir : ".", path, sizeof(path)))
		return;
	seq_buf_init(&s, listing, sizeof(listing));
	if (pseudofs_list(path, &s) <= 0)
		return;
	for (entry = listing; *entry; entry = strchr(entry, '\n') + 1) {
		size_t len = strchr(entry, '\n') - entry;
		size_t baselen = n - (base - word);

		if (len >= baselen && strncmp(entry, base, baselen) == 0)
			add(c, word, base - word, entry, len);
	}
}

int shell_complete(const char *line, size_t start, size_t end, char *out, size_t size)
{
	struct candidates c = { .out = out, .size = size };
	size_t first = 0;

	out[0] = '\0';
	while (line[first] == ' ')
		first++;
	if (start == first)
		complete_command(&c, line + start, end - start);
	else
		complete_path(&c, line + start, end - start);
	return c.count;
}
