/* Shared helpers of the clean-room SIK Kierki client and server (tests/interop/sik_c).
 * Written from the protocol page only (../shared/protocols/sik-kierki.md): cards, seats,
 * the report line format, and line buffering. Header-only; C11 + POSIX. */
#ifndef SIK_H
#define SIK_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#define SEATS "NESW"
#define SUITS "CDHS"
#define LINE_MAX_LEN 512

/* Card c in 0..51: suit * 13 + rank, rank 0 is '2' ... 12 is 'A'. */
static const char *const RANKS[13] = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"};

static inline int card_suit(int c) { return c / 13; }
static inline int card_rank(int c) { return c % 13; }

static inline int seat_index(char ch) {
    const char *p = ch ? strchr(SEATS, ch) : NULL;
    return p ? (int)(p - SEATS) : -1;
}

/* Parse one card at s; returns its length (2 or 3) and sets *card, or 0 when none is there. */
static inline int parse_card(const char *s, int *card) {
    int rank = -1, len = 0;
    if (s[0] == '1' && s[1] == '0') { rank = 8; len = 2; }
    else if (s[0] >= '2' && s[0] <= '9') { rank = s[0] - '2'; len = 1; }
    else if (s[0] && strchr("JQKA", s[0])) { rank = 9 + (int)(strchr("JQKA", s[0]) - "JQKA"); len = 1; }
    if (rank < 0 || !s[len]) return 0;
    const char *p = strchr(SUITS, s[len]);
    if (!p) return 0;
    *card = (int)(p - SUITS) * 13 + rank;
    return len + 1;
}

/* Parse exactly n cards filling the whole string s; 1 on success. */
static inline int parse_cards_exact(const char *s, int n, int *cards) {
    for (int i = 0; i < n; i++) {
        int len = parse_card(s, &cards[i]);
        if (!len) return 0;
        s += len;
    }
    return *s == '\0';
}

/* Parse 0..max cards filling the whole string s; the count, or -1. */
static inline int parse_cards_upto(const char *s, int max, int *cards) {
    int n = 0;
    while (*s) {
        if (n == max) return -1;
        int len = parse_card(s, &cards[n]);
        if (!len) return -1;
        s += len;
        n++;
    }
    return n;
}

static inline char *card_text(int c, char *out) {
    sprintf(out, "%s%c", RANKS[card_rank(c)], SUITS[card_suit(c)]);
    return out;
}

/* Append a card to a message buffer. */
static inline void append_card(char *buf, int c) {
    char t[4];
    strcat(buf, card_text(c, t));
}

/* A trick number 1..13 written without leading zeros at the start of s, of exactly `digits`
 * digits; the number or -1. */
static inline int trick_prefix(const char *s, int digits) {
    if (digits == 1) return (s[0] >= '1' && s[0] <= '9') ? s[0] - '0' : -1;
    if (s[0] == '1' && s[1] >= '0' && s[1] <= '3') return 10 + s[1] - '0';
    return -1;
}

static inline void addr_text(const struct sockaddr_storage *a, char *out, size_t size) {
    char host[INET6_ADDRSTRLEN] = "?";
    int port = 0;
    if (a->ss_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)a;
        inet_ntop(AF_INET, &v4->sin_addr, host, sizeof host);
        port = ntohs(v4->sin_port);
    } else if (a->ss_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)a;
        inet_ntop(AF_INET6, &v6->sin6_addr, host, sizeof host);
        port = ntohs(v6->sin6_port);
    }
    snprintf(out, size, "%s:%d", host, port);
}

/* The local and peer addresses of a connected socket, as "addr:port". */
static inline void socket_names(int fd, char *local, char *peer, size_t size) {
    struct sockaddr_storage a;
    socklen_t len = sizeof a;
    memset(&a, 0, sizeof a);
    getsockname(fd, (struct sockaddr *)&a, &len);
    addr_text(&a, local, size);
    len = sizeof a;
    memset(&a, 0, sizeof a);
    getpeername(fd, (struct sockaddr *)&a, &len);
    addr_text(&a, peer, size);
}

/* Small messages go out at once (no Nagle delay waiting for the peer's ACK). */
static inline void no_delay(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* One report line: [from,to,ISO time with ms] message. */
static inline void report(const char *from, const char *to, const char *msg) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    localtime_r(&tv.tv_sec, &tm);
    char when[32];
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
    printf("[%s,%s,%s.%03ld] ", from, to, when, (long)(tv.tv_usec / 1000));
    for (const unsigned char *p = (const unsigned char *)msg; *p; p++) /* bytes that are not */
        if (*p >= 0x20 && *p < 0x7f && *p != '\\') putchar(*p);        /* printable: escaped */
        else printf("\\x%02x", *p);
    putchar('\n');
    fflush(stdout);
}

/* Incoming bytes are gathered into lines. Tolerant: CR LF or bare LF ends a line, NUL bytes
 * are dropped, an overlong line is cut (flagged so the caller can treat it as invalid). */
typedef struct {
    char buf[LINE_MAX_LEN + 1];
    size_t len;
    int overlong;
} linebuf;

/* Feed one byte; returns 1 when a complete line is in `line` (and *bad says it was overlong). */
static inline int linebuf_feed(linebuf *lb, char ch, char *line, int *bad) {
    if (ch == '\0') return 0;
    if (ch == '\n') {
        size_t n = lb->len;
        if (n && lb->buf[n - 1] == '\r') n--;
        memcpy(line, lb->buf, n);
        line[n] = '\0';
        *bad = lb->overlong;
        lb->len = 0;
        lb->overlong = 0;
        return 1;
    }
    if (lb->len < LINE_MAX_LEN) lb->buf[lb->len++] = ch;
    else lb->overlong = 1;
    return 0;
}

/* Points of one finished trick for deal type 1..7 (the SIK scoring profile). */
static inline int trick_points(int type, int number, const int cards[4]) {
    int pts = 0;
    if (type == 1 || type == 7) pts += 1;
    for (int i = 0; i < 4; i++) {
        int c = cards[i];
        if ((type == 2 || type == 7) && card_suit(c) == 2) pts += 1;
        if ((type == 3 || type == 7) && card_rank(c) == 10) pts += 5;
        if ((type == 4 || type == 7) && (card_rank(c) == 11 || card_rank(c) == 9)) pts += 2;
        if ((type == 5 || type == 7) && c == 2 * 13 + 11) pts += 18;
    }
    if ((type == 6 || type == 7) && (number == 7 || number == 13)) pts += 10;
    return pts;
}

/* All the points of a deal of this type. */
static inline int deal_points(int type) {
    static const int total[8] = {0, 13, 13, 20, 16, 18, 20, 100};
    return total[type];
}

/* Who takes a trick led by `leader`: the highest card of the led suit. */
static inline int trick_taker(int leader, const int cards[4]) {
    int best = 0;
    for (int i = 1; i < 4; i++)
        if (card_suit(cards[i]) == card_suit(cards[0]) && card_rank(cards[i]) > card_rank(cards[best])) best = i;
    return (leader + best) % 4;
}

#endif
