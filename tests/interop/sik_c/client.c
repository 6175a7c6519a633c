/* A clean-room SIK Kierki client, written for interoperability testing from the protocol page
 * only (../shared/protocols/sik-kierki.md). It claims a seat, plays the lowest legal card
 * (following suit when it can), prints the protocol report on stdout, keeps its own tally of
 * every deal's points from the TAKEN messages and checks it against the server's SCORE.
 *
 *   client -h HOST -p PORT -s SEAT [-4|-6] [-w] [-x N] [-H N]
 *   -w  once, answer a TRICK with a card that is not legal (a revoke, or a card it does not
 *       hold), to provoke WRONG; then play on.
 *   -x N  drop the connection after the N-th TAKEN (exit 3), to test reconnection.
 *   -H N  after the N-th TAKEN, hold the next TRICK request unanswered until SIGUSR1 (the match
 *         cannot end meanwhile: a test can replace another seat at a known point).
 * At the end it prints to stderr: "total N<pts>E<pts>S<pts>W<pts>" (the last TOTAL, or the
 * sum of the SCOREs if no TOTAL came), "tally ..." (its own count), "wrong <k>" and
 * "mismatch <k>" (deals whose SCORE differed from its own tally).
 * Exit 0 when the server closed the connection after at least one SCORE; 1 otherwise. */
#define _POSIX_C_SOURCE 200809L
#include "sik.h"

#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <sys/select.h>
#include <unistd.h>

static int fd = -1;
static char local_name[80], peer_name[80];

static int hand[52];           /* 1 when the card is in our hand */
static int deal_type, trick_no; /* trick_no: the trick we expect next */
static int in_deal, leader;
static int my_seat;
static int want_wrong, wrong_sent, wrongs, mismatches, scores_seen, totals_seen;
static int leave_after = -1, hold_after = -1, takens;
static volatile sig_atomic_t released;
static int held, held_no, held_count, held_cards[3];
static int tally[4], deal_tally[4], total[4], score_sum[4];

static void send_line(const char *msg) {
    char out[LINE_MAX_LEN + 3];
    snprintf(out, sizeof out, "%s\r\n", msg);
    size_t len = strlen(out), done = 0;
    while (done < len) {
        ssize_t n = send(fd, out + done, len - done, MSG_NOSIGNAL);
        if (n <= 0) { perror("send"); exit(1); }
        done += (size_t)n;
    }
    report(local_name, peer_name, msg);
}

static int lowest_in_suit(int suit) {
    for (int r = 0; r < 13; r++)
        if (hand[suit * 13 + r]) return suit * 13 + r;
    return -1;
}

/* The lowest card that follows the led suit; with no card of it (or leading), the lowest card. */
static int legal_lowest(const int *table, int n) {
    if (n > 0) {
        int c = lowest_in_suit(card_suit(table[0]));
        if (c >= 0) return c;
    }
    int best = -1;
    for (int c = 0; c < 52; c++)
        if (hand[c] && (best < 0 || card_rank(c) < card_rank(best))) best = c;
    return best;
}

/* A card the server must refuse: a revoke when one is possible, else a card we do not hold. */
static int illegal_card(const int *table, int n) {
    if (n > 0 && lowest_in_suit(card_suit(table[0])) >= 0)
        for (int c = 0; c < 52; c++)
            if (hand[c] && card_suit(c) != card_suit(table[0])) return c;
    for (int c = 0; c < 52; c++)
        if (!hand[c]) return c;
    return 0;
}

static void on_usr1(int sig) {
    (void)sig;
    released = 1;
}

static void play(int number, const int *table, int n) {
    if (hold_after >= 0 && takens >= hold_after && !released) {
        held = 1, held_no = number, held_count = n;
        memcpy(held_cards, table, sizeof(int) * (size_t)n);
        fprintf(stderr, "holding TRICK%d\n", number);
        return;
    }
    int card = legal_lowest(table, n);
    if (want_wrong && !wrong_sent) {
        card = illegal_card(table, n);
        wrong_sent = 1;
    }
    char msg[32];
    snprintf(msg, sizeof msg, "TRICK%d", number);
    append_card(msg, card);
    send_line(msg);
}

/* TRICK<n><0-3 cards>: the number is read with the trick we expect first (TRICK12C). */
static void on_trick(const char *rest) {
    int cards[3];
    for (int pass = 0; pass < 2; pass++)
        for (int digits = 1; digits <= 2; digits++) {
            int n = trick_prefix(rest, digits);
            if (n < 0 || (pass == 0 && n != trick_no)) continue;
            int count = parse_cards_upto(rest + digits, 3, cards);
            if (count < 0) continue;
            trick_no = n;
            play(n, cards, count);
            return;
        }
}

static void on_taken(const char *rest) {
    size_t len = strlen(rest);
    if (len < 2) return;
    int taker = seat_index(rest[len - 1]);
    if (taker < 0) return;
    char body[64];
    if (len - 1 >= sizeof body) return;
    memcpy(body, rest, len - 1);
    body[len - 1] = '\0';
    int cards[4];
    for (int pass = 0; pass < 2; pass++)
        for (int digits = 1; digits <= 2; digits++) {
            int n = trick_prefix(body, digits);
            if (n < 0 || (pass == 0 && n != trick_no)) continue;
            if (!parse_cards_exact(body + digits, 4, cards)) continue;
            for (int i = 0; i < 4; i++) hand[cards[i]] = 0;
            if (trick_taker(leader, cards) != taker) mismatches++; /* judged by the page's rules */
            leader = taker;
            deal_tally[taker] += trick_points(deal_type, n, cards);
            trick_no = n + 1;
            if (++takens == leave_after) { close(fd); fprintf(stderr, "left after %d TAKEN\n", takens); exit(3); }
            return;
        }
}

static void on_deal(const char *rest) {
    int cards[13];
    if (!(rest[0] >= '1' && rest[0] <= '7') || seat_index(rest[1]) < 0) return;
    if (!parse_cards_exact(rest + 2, 13, cards)) return;
    memset(hand, 0, sizeof hand);
    for (int i = 0; i < 13; i++) hand[cards[i]] = 1;
    deal_type = rest[0] - '0';
    leader = seat_index(rest[1]);
    trick_no = 1;
    in_deal = 1;
    memset(deal_tally, 0, sizeof deal_tally);
}

/* SCORE/TOTAL: seat-points pairs in any order; 1 when all four seats were read. */
static int read_pairs(const char *s, int out[4]) {
    int seen = 0;
    while (*s) {
        int seat = seat_index(*s++);
        if (seat < 0 || *s < '0' || *s > '9') return 0;
        long v = strtol(s, (char **)&s, 10);
        out[seat] = (int)v;
        seen |= 1 << seat;
    }
    return seen == 15;
}

static void on_score(const char *rest) {
    int pts[4];
    if (!read_pairs(rest, pts)) return;
    scores_seen++;
    for (int i = 0; i < 4; i++) {
        if (pts[i] != deal_tally[i]) mismatches++;
        score_sum[i] += pts[i];
        tally[i] += deal_tally[i];
        deal_tally[i] = 0;
    }
    in_deal = 0;
}

static void on_line(const char *line) {
    report(peer_name, local_name, line);
    if (!strncmp(line, "DEAL", 4)) on_deal(line + 4);
    else if (!strncmp(line, "TRICK", 5) && in_deal) on_trick(line + 5);
    else if (!strncmp(line, "TAKEN", 5) && in_deal) on_taken(line + 5);
    else if (!strncmp(line, "WRONG", 5)) wrongs++;
    else if (!strncmp(line, "SCORE", 5)) on_score(line + 5);
    else if (!strncmp(line, "TOTAL", 5)) { if (read_pairs(line + 5, total)) totals_seen++; }
    else if (!strncmp(line, "BUSY", 4)) { fprintf(stderr, "client: seat busy (%s)\n", line + 4); exit(1); }
    /* anything else: ignored, as the page asks */
}

static void connect_to(const char *host, const char *port, int family) {
    struct addrinfo hints, *res, *ai;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = family;
    hints.ai_socktype = SOCK_STREAM;
    int err = getaddrinfo(host, port, &hints, &res);
    if (err) { fprintf(stderr, "client: %s: %s\n", host, gai_strerror(err)); exit(1); }
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) continue;
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) { fprintf(stderr, "client: cannot connect to %s:%s\n", host, port); exit(1); }
    no_delay(fd);
    socket_names(fd, local_name, peer_name, sizeof local_name);
}

static void print_seats(const char *what, const int v[4]) {
    fprintf(stderr, "%s N%dE%dS%dW%d\n", what, v[0], v[1], v[2], v[3]);
}

int main(int argc, char **argv) {
    const char *host = "127.0.0.1", *port = NULL;
    int family = AF_UNSPEC, opt;
    my_seat = -1;
    while ((opt = getopt(argc, argv, "h:p:s:46wx:H:")) != -1) {
        if (opt == 'h') host = optarg;
        else if (opt == 'p') port = optarg;
        else if (opt == 's') my_seat = seat_index(optarg[0]);
        else if (opt == '4') family = AF_INET;
        else if (opt == '6') family = AF_INET6;
        else if (opt == 'w') want_wrong = 1;
        else if (opt == 'x') leave_after = atoi(optarg);
        else if (opt == 'H') hold_after = atoi(optarg);
        else { fprintf(stderr, "usage: client -h HOST -p PORT -s N|E|S|W [-4|-6] [-w] [-x N] [-H N]\n"); return 2; }
    }
    if (!port || my_seat < 0) { fprintf(stderr, "usage: client -h HOST -p PORT -s N|E|S|W [-4|-6] [-w] [-x N] [-H N]\n"); return 2; }
    connect_to(host, port, family);
    char iam[8];
    snprintf(iam, sizeof iam, "IAM%c", SEATS[my_seat]);
    send_line(iam);
    linebuf lb = {0};
    char buf[4096], line[LINE_MAX_LEN + 1];
    /* SIGUSR1 is blocked except inside pselect, so a release is never missed */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    sigset_t usr1, waiting;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, &waiting);
    sigdelset(&waiting, SIGUSR1);
    for (;;) {
        if (released && held) {
            held = 0;
            play(held_no, held_cards, held_count);
        }
        fd_set readable;
        FD_ZERO(&readable);
        FD_SET(fd, &readable);
        if (pselect(fd + 1, &readable, NULL, NULL, NULL, &waiting) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        for (ssize_t i = 0; i < n; i++) {
            int bad;
            if (linebuf_feed(&lb, buf[i], line, &bad) && !bad) on_line(line);
        }
    }
    close(fd);
    print_seats("total", totals_seen ? total : score_sum);
    print_seats("tally", tally);
    fprintf(stderr, "wrong %d\nmismatch %d\n", wrongs, mismatches);
    return scores_seen > 0 ? 0 : 1;
}
