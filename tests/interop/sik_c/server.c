/* A clean-room SIK Kierki server, written for interoperability testing from the protocol page
 * only (../shared/protocols/sik-kierki.md). It seats four clients (IAM), plays the deals of a
 * match file, checks every play (WRONG for anything invalid), judges tricks and scores by the
 * SIK scoring profile, sends SCORE and TOTAL after every deal, takes back a client that
 * reconnects to an empty seat, prints the protocol report on stdout and exits 0.
 *
 *   server -f MATCHFILE [-p PORT] [-a ADDR] [-t SECONDS] [-e]
 *   -p  port (0, the default: the system picks one); "listening on ADDR:PORT" goes to stderr
 *   -a  address to listen on (default 127.0.0.1)
 *   -t  timeout for IAM and before asking a silent seat again (default 5)
 *   -e  end a deal early once every point of it has been taken
 * At the end it prints "total N<pts>E<pts>S<pts>W<pts>" on stderr.
 * Choices the page leaves open: a first message that is not a valid IAM closes the connection;
 * once seated, any invalid message or illegal play gets WRONG<current trick> and the seat on
 * turn is asked again at once; messages before the first deal are ignored. */
#define _POSIX_C_SOURCE 200809L
#include "sik.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <unistd.h>

#define MAX_CONNS 64
#define MAX_DEALS 256

typedef struct {
    int fd;
    int seat; /* -1 until a valid IAM */
    double deadline; /* for IAM */
    linebuf lb;
    char local[80], peer[80];
} conn;

typedef struct {
    int type, leader;
    int cards[4][13];
} deal;

static deal deals[MAX_DEALS];
static int ndeals;
static conn conns[MAX_CONNS];
static int seat_conn[4] = {-1, -1, -1, -1};
static double timeout_s = 5;
static int early_stop;

/* The match state. */
static int started, deal_no, deal_running;
static int hand[4][52];
static int trick_no, leader, on_table, table[4];
static int played[13][4], takers[13];
static int deal_score[4], total[4];
static int asked;      /* the seat on turn has been sent TRICK */
static double ask_at;  /* when */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *msg) {
    fprintf(stderr, "server: %s\n", msg);
    exit(1);
}

/* ---- match file ---- */

static void load_deals(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); exit(1); }
    char line[256];
    int lineno = 0, part = 0;
    deal *d = NULL;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0]) continue;
        if (part == 0) {
            if (ndeals == MAX_DEALS) die("too many deals");
            d = &deals[ndeals];
            if (strlen(line) != 2 || line[0] < '1' || line[0] > '7' || seat_index(line[1]) < 0) {
                fprintf(stderr, "server: %s:%d: expected <type><seat>\n", path, lineno);
                exit(1);
            }
            d->type = line[0] - '0';
            d->leader = seat_index(line[1]);
        } else if (!parse_cards_exact(line, 13, d->cards[part - 1])) {
            fprintf(stderr, "server: %s:%d: expected 13 cards\n", path, lineno);
            exit(1);
        }
        if (++part == 5) {
            int seen[52] = {0};
            for (int s = 0; s < 4; s++)
                for (int i = 0; i < 13; i++)
                    if (seen[d->cards[s][i]]++) {
                        fprintf(stderr, "server: %s:%d: a card dealt twice\n", path, lineno);
                        exit(1);
                    }
            ndeals++;
            part = 0;
        }
    }
    fclose(f);
    if (part != 0 || ndeals == 0) die("the match file must hold whole deals of 5 lines");
}

/* ---- sending ---- */

static void close_conn(int i) {
    if (conns[i].fd < 0) return;
    close(conns[i].fd);
    if (conns[i].seat >= 0 && seat_conn[conns[i].seat] == i) seat_conn[conns[i].seat] = -1;
    conns[i].fd = -1;
    conns[i].seat = -1;
}

static void send_to(int i, const char *msg) {
    if (i < 0 || conns[i].fd < 0) return;
    char out[LINE_MAX_LEN + 3];
    snprintf(out, sizeof out, "%s\r\n", msg);
    size_t len = strlen(out), done = 0;
    while (done < len) {
        ssize_t n = send(conns[i].fd, out + done, len - done, MSG_NOSIGNAL);
        if (n <= 0) { close_conn(i); return; }
        done += (size_t)n;
    }
    report(conns[i].local, conns[i].peer, msg);
}

static void send_seat(int seat, const char *msg) { send_to(seat_conn[seat], msg); }

static void send_all(const char *msg) {
    for (int s = 0; s < 4; s++) send_seat(s, msg);
}

static int turn(void) { return (leader + on_table) % 4; }

static int all_seated(void) {
    for (int s = 0; s < 4; s++)
        if (seat_conn[s] < 0) return 0;
    return 1;
}

static void send_deal(int seat) {
    deal *d = &deals[deal_no];
    char msg[64];
    snprintf(msg, sizeof msg, "DEAL%d%c", d->type, SEATS[d->leader]);
    for (int i = 0; i < 13; i++) append_card(msg, d->cards[seat][i]);
    send_seat(seat, msg);
}

static void send_taken(int seat, int n) {
    char msg[64];
    snprintf(msg, sizeof msg, "TAKEN%d", n);
    for (int i = 0; i < 4; i++) append_card(msg, played[n - 1][i]);
    size_t len = strlen(msg);
    msg[len] = SEATS[takers[n - 1]];
    msg[len + 1] = '\0';
    send_seat(seat, msg);
}

static void ask(void) {
    char msg[32];
    snprintf(msg, sizeof msg, "TRICK%d", trick_no);
    for (int i = 0; i < on_table; i++) append_card(msg, table[i]);
    send_seat(turn(), msg);
    asked = 1;
    ask_at = now();
}

static void send_points(const char *word, const int pts[4]) {
    char msg[64];
    snprintf(msg, sizeof msg, "%sN%dE%dS%dW%d", word, pts[0], pts[1], pts[2], pts[3]);
    send_all(msg);
}

/* ---- the game ---- */

static void start_deal(void) {
    deal *d = &deals[deal_no];
    memset(hand, 0, sizeof hand);
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < 13; i++) hand[s][d->cards[s][i]] = 1;
    memset(deal_score, 0, sizeof deal_score);
    trick_no = 1;
    leader = d->leader;
    on_table = 0;
    deal_running = 1;
    asked = 0;
    for (int s = 0; s < 4; s++) send_deal(s);
}

/* Keep the match moving: start it, start the next deal, or ask the seat on turn. */
static void advance(void) {
    if (!all_seated()) return; /* paused until every seat is filled */
    if (!deal_running) {
        started = 1;
        start_deal();
    }
    if (!asked) ask();
}

static int taken_points(void) {
    int sum = 0;
    for (int s = 0; s < 4; s++) sum += deal_score[s];
    return sum;
}

static int finish_deal(void) {
    for (int s = 0; s < 4; s++) total[s] += deal_score[s];
    send_points("SCORE", deal_score);
    send_points("TOTAL", total);
    deal_running = 0;
    return ++deal_no == ndeals;
}

static int follows_suit(int seat, int card) {
    if (on_table == 0 || card_suit(card) == card_suit(table[0])) return 1;
    for (int r = 0; r < 13; r++)
        if (hand[seat][card_suit(table[0]) * 13 + r]) return 0;
    return 1;
}

/* A valid play of `card` by the seat on turn; 1 when the match is over. */
static int accept_play(int card) {
    int seat = turn();
    hand[seat][card] = 0;
    table[on_table++] = card;
    asked = 0;
    if (on_table < 4) return 0;
    int taker = trick_taker(leader, table);
    memcpy(played[trick_no - 1], table, sizeof table);
    takers[trick_no - 1] = taker;
    deal_score[taker] += trick_points(deals[deal_no].type, trick_no, table);
    for (int s = 0; s < 4; s++) send_taken(s, trick_no);
    leader = taker;
    on_table = 0;
    int ended = trick_no == 13 || (early_stop && taken_points() == deal_points(deals[deal_no].type));
    trick_no++;
    return ended ? finish_deal() : 0;
}

/* TRICK<n><card> from a client: n and the card (the split that leaves exactly one card). */
static int parse_play(const char *line, int *n, int *card) {
    if (strncmp(line, "TRICK", 5)) return 0;
    for (int digits = 1; digits <= 2; digits++) {
        int t = trick_prefix(line + 5, digits);
        if (t >= 0 && parse_cards_exact(line + 5 + digits, 1, card)) {
            *n = t;
            return 1;
        }
    }
    return 0;
}

static void wrong(int i) {
    char msg[16];
    snprintf(msg, sizeof msg, "WRONG%d", trick_no);
    send_to(i, msg);
}

/* A line from a seated client; 1 when the match is over. */
static int seated_line(int i, const char *line, int bad) {
    int seat = conns[i].seat, n, card;
    if (!deal_running) return 0; /* before the first deal (or between): ignored */
    if (!bad && parse_play(line, &n, &card) && seat == turn() && asked && n == trick_no && hand[seat][card] &&
        follows_suit(seat, card)) {
        int over = accept_play(card);
        if (!over) advance();
        return over;
    }
    wrong(i);
    if (seat == turn() && all_seated()) ask();
    return 0;
}

static void print_busy(int i) {
    char msg[16] = "BUSY";
    for (int s = 0; s < 4; s++)
        if (seat_conn[s] >= 0) {
            size_t len = strlen(msg);
            msg[len] = SEATS[s];
            msg[len + 1] = '\0';
        }
    send_to(i, msg);
    close_conn(i);
}

static void iam_line(int i, const char *line, int bad) {
    int seat = (!bad && !strncmp(line, "IAM", 3) && line[3] && !line[4]) ? seat_index(line[3]) : -1;
    if (seat < 0) { close_conn(i); return; }
    if (seat_conn[seat] >= 0) { print_busy(i); return; }
    conns[i].seat = seat;
    seat_conn[seat] = i;
    if (deal_running) { /* a reconnection: the seat's cards and every finished trick */
        send_deal(seat);
        for (int t = 1; t < trick_no; t++) send_taken(seat, t);
        if (turn() == seat) asked = 0;
        else ask_at = now(); /* the pause is not the silence of the seat on turn */
    }
    advance();
}

/* Read what a connection sent; 1 when the match is over. */
static int read_conn(int i) {
    char buf[4096], line[LINE_MAX_LEN + 1];
    ssize_t n = recv(conns[i].fd, buf, sizeof buf, 0);
    if (n <= 0) {
        int seat = conns[i].seat;
        close_conn(i);
        if (seat >= 0 && seat == turn()) asked = 0; /* ask whoever takes the seat */
        return 0;
    }
    for (ssize_t k = 0; k < n && conns[i].fd >= 0; k++) {
        int bad;
        if (!linebuf_feed(&conns[i].lb, buf[k], line, &bad)) continue;
        report(conns[i].peer, conns[i].local, line);
        if (conns[i].seat < 0) iam_line(i, line, bad);
        else if (seated_line(i, line, bad)) return 1;
    }
    return 0;
}

static void accept_conn(int lfd) {
    int fd = accept(lfd, NULL, NULL);
    if (fd < 0) return;
    for (int i = 0; i < MAX_CONNS; i++)
        if (conns[i].fd < 0) {
            memset(&conns[i], 0, sizeof conns[i]);
            conns[i].fd = fd;
            conns[i].seat = -1;
            conns[i].deadline = now() + timeout_s;
            no_delay(fd);
            socket_names(fd, conns[i].local, conns[i].peer, sizeof conns[i].local);
            return;
        }
    close(fd); /* too many connections */
}

static void check_timeouts(void) {
    double t = now();
    for (int i = 0; i < MAX_CONNS; i++)
        if (conns[i].fd >= 0 && conns[i].seat < 0 && t >= conns[i].deadline) close_conn(i);
    if (deal_running && asked && all_seated() && t >= ask_at + timeout_s) ask();
}

static int listen_on(const char *addr, const char *port) {
    struct addrinfo hints, *res;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST;
    if (getaddrinfo(addr, port, &hints, &res)) die("bad address");
    int lfd = socket(res->ai_family, SOCK_STREAM, 0), one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (lfd < 0 || bind(lfd, res->ai_addr, res->ai_addrlen) || listen(lfd, 64)) die(strerror(errno));
    freeaddrinfo(res);
    struct sockaddr_storage a;
    socklen_t len = sizeof a;
    getsockname(lfd, (struct sockaddr *)&a, &len);
    char name[80];
    addr_text(&a, name, sizeof name);
    fprintf(stderr, "listening on %s\n", name);
    return lfd;
}

int main(int argc, char **argv) {
    const char *file = NULL, *port = "0", *addr = "127.0.0.1";
    int opt;
    while ((opt = getopt(argc, argv, "f:p:a:t:e")) != -1) {
        if (opt == 'f') file = optarg;
        else if (opt == 'p') port = optarg;
        else if (opt == 'a') addr = optarg;
        else if (opt == 't') timeout_s = atof(optarg);
        else if (opt == 'e') early_stop = 1;
        else file = NULL, argc = 0;
    }
    if (!file || timeout_s <= 0) { fprintf(stderr, "usage: server -f MATCHFILE [-p PORT] [-a ADDR] [-t SECONDS] [-e]\n"); return 2; }
    load_deals(file);
    for (int i = 0; i < MAX_CONNS; i++) conns[i].fd = -1;
    int lfd = listen_on(addr, port);
    for (;;) {
        struct pollfd fds[MAX_CONNS + 1];
        int who[MAX_CONNS + 1], n = 0;
        fds[n].fd = lfd; fds[n].events = POLLIN; who[n++] = -1;
        for (int i = 0; i < MAX_CONNS; i++)
            if (conns[i].fd >= 0) { fds[n].fd = conns[i].fd; fds[n].events = POLLIN; who[n++] = i; }
        if (poll(fds, (nfds_t)n, 100) < 0 && errno != EINTR) die(strerror(errno));
        for (int k = 0; k < n; k++) {
            if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (who[k] < 0) accept_conn(lfd);
            else if (conns[who[k]].fd == fds[k].fd && read_conn(who[k])) goto over;
        }
        check_timeouts();
    }
over:
    for (int i = 0; i < MAX_CONNS; i++) close_conn(i);
    close(lfd);
    fprintf(stderr, "total N%dE%dS%dW%d\n", total[0], total[1], total[2], total[3]);
    return 0;
}
