/*
 * utf8.h - the length of a valid UTF-8 sequence, for the writers that pass
 * text through as it is and escape what is not valid (JSON, the terminal).
 */
#ifndef LK_REPORT_UTF8_H
#define LK_REPORT_UTF8_H

/* Length of the valid UTF-8 sequence at s (1 to 4: no overlong form, no
 * surrogate, at most U+10FFFF), or 0. */
static inline int lk_utf8_len(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	int n = (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
	if (n == 0 || (n == 2 && s[0] < 0xc2) || (n == 4 && s[0] > 0xf4))
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)))
		return 0;
	if (n == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90)))
		return 0;
	return n;
}

#endif
