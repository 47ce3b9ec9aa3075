/* text_escape.c - program text, safe for a terminal (text_escape.h). */
#include "report/timeline/text_escape.h"

/* The length of the valid UTF-8 sequence at s (2 to 4 bytes, no overlong
 * form, no surrogate, at most U+10FFFF), or 0. */
static int utf8_sequence(const unsigned char *s)
{
	unsigned c = s[0];
	int n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
	if (n == 0 || c > 0xf4)
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

void lk_text_put_escaped(FILE *out, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	while (*s) {
		unsigned c = *s;
		int n = c >= 0x80 ? utf8_sequence(s) : 1;
		if (c == '\\')
			fputs("\\\\", out);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c == '\r')
			fputs("\\r", out);
		else if (c < 0x20 || c == 0x7f || n == 0)
			fprintf(out, "\\x%02x", c);
		else
			fwrite(s, 1, (size_t)n, out);
		s += n ? n : 1;
	}
}
