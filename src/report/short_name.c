/* short_name.c - names shortened for a text report (see short_name.h). */
#include <string.h>

#include "report/short_name.h"

#define ELLIPSIS "\xe2\x80\xa6"   /* U+2026, one column */
#define SHORT_GROUP 24             /* "(unsigned long)", "<int>" stay */

struct sink {
	char *buf;
	size_t size, len;
};

static void emit(struct sink *k, const char *s, size_t n)
{
	if (k->len + 1 >= k->size)
		return;
	if (n > k->size - 1 - k->len)
		n = k->size - 1 - k->len;
	memcpy(k->buf + k->len, s, n);
	k->len += n;
}

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* The index just past the bracket that closes the one at s[i], or 0. */
static size_t closing(const char *s, size_t i)
{
	char open = s[i], close = open == '<' ? '>' : ')';
	int depth = 0;
	for (size_t j = i; s[j]; j++) {
		if (s[j] == open)
			depth++;
		else if (s[j] == close && --depth == 0)
			return j + 1;
	}
	return 0;
}

/* "operator" at s[i] (a whole word): how many bytes its name takes with
 * the operator's symbol ("operator<<", "operator()", "operator new"). */
static size_t operator_len(const char *s, size_t i)
{
	static const char symbols[] = "<>=!+-*/%^&|~,";
	if (strncmp(s + i, "operator", 8) || (i && ident_char(s[i - 1])) || ident_char(s[i + 8]))
		return 0;
	size_t j = i + 8;
	if (!strncmp(s + j, "()", 2))
		return 10;
	while (s[j] && strchr(symbols, s[j]))
		j++;
	return j - i;
}

/* A bracketed run s[i .. end) a person reads as it is: short, nothing
 * nested. */
static int plain_group(const char *s, size_t i, size_t end)
{
	return end - i <= SHORT_GROUP && !memchr(s + i + 1, '<', end - i - 2) &&
	       !memchr(s + i + 1, '(', end - i - 2);
}

/* Rust's "<T as Trait>::f" and "<T>::f": the brackets that start a name
 * hold the type the function belongs to, shortened inside. */
static int qualified_path(const char *s, size_t i)
{
	return s[i] == '<' && (i == 0 || s[i - 1] == ' ');
}

static int is_cxx(const char *name)
{
	size_t n = strlen(name);
	return strstr(name, "::") || (n && name[n - 1] == ')');
}

/* Where the name of a function whose return type the demangler wrote
 * first ("void std::vector<…>::_M_realloc_insert<…>(…)") starts: past
 * the last space outside brackets before its parameters, unless that
 * space is an operator's ("operator new(unsigned long)"). */
static size_t past_return_type(const char *s)
{
	size_t start = 0;
	int depth = 0;
	for (size_t i = 0; s[i] && !(s[i] == '(' && depth == 0); i++) {
		depth += s[i] == '<' || s[i] == '(';
		depth -= s[i] == '>' || s[i] == ')';
		if (s[i] == ' ' && depth == 0 && !(i >= 8 && !strncmp(s + i - 8, "operator", 8)))
			start = i + 1;
	}
	return start;
}

size_t lk_short_name(const char *name, char *buf, size_t size)
{
	struct sink k = {buf, size, 0};
	int cxx = is_cxx(name);
	for (size_t i = 0, n; cxx && name[i]; ) {
		size_t end = 0;
		if (!strncmp(name + i, "(anonymous namespace)", 21))
			n = 21;
		else if ((n = operator_len(name, i)))
			;
		else if ((name[i] == '<' || name[i] == '(') && (end = closing(name, i)) > i + 2 &&
			 !plain_group(name, i, end) && !qualified_path(name, i))
			n = 0;
		else
			n = 1;
		if (n) {
			emit(&k, name + i, n);
			i += n;
			continue;
		}
		emit(&k, name[i] == '<' ? "<" ELLIPSIS ">" : "(" ELLIPSIS ")", 5);
		i = end;
	}
	if (!cxx)
		emit(&k, name, strlen(name));
	if (size)
		buf[k.len] = 0;
	size_t skip = cxx && size ? past_return_type(buf) : 0;
	memmove(buf, buf + skip, k.len - skip + 1);
	return k.len - skip;
}

size_t lk_text_columns(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The byte offset where column col of s (n bytes) starts. */
static size_t column_offset(const char *s, size_t n, size_t col)
{
	size_t i = 0;
	for (size_t c = 0; i < n; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && c++ == col)
			break;
	}
	return i;
}

size_t lk_cut_middle(char *s, size_t n, size_t max, size_t keep_head)
{
	size_t cols = lk_text_columns(s, n);
	if (cols <= max || max < keep_head + 2)
		return n;
	size_t head = column_offset(s, n, keep_head);
	size_t tail = column_offset(s, n, cols - (max - keep_head - 1));
	memmove(s + head + 3, s + tail, n - tail);
	memcpy(s + head, ELLIPSIS, 3);
	n = head + 3 + (n - tail);
	s[n] = 0;
	return n;
}
