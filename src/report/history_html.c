/* placeholder replaced below */
#include "report/history_report.h"
int lk_history_write_html(const struct lk_history *h, const struct lk_history_view *v, FILE *out)
{
	return -1;
}
