/* Functions we never use: unbounded copies and formats. */
#ifndef SB_BANNED_H
#define SB_BANNED_H
#define strcpy(d, s) sb_banned_strcpy_use_snprintf
#define strcat(d, s) sb_banned_strcat_use_snprintf
#define sprintf(...) sb_banned_sprintf_use_snprintf
#define vsprintf(...) sb_banned_vsprintf_use_vsnprintf
#define gets(s) sb_banned_gets_use_fgets
#endif
