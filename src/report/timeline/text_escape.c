/* text_escape.c - program text, safe for a terminal (text_escape.h). */
#include "report/timeline/text_escape.h"
#include "report/utf8.h"

void lk_text_put_escaped(FILE *out, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	while (*s) {
		unsigned c = *s;
		int n = lk_utf8_len(s);
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
