/* An example bot of the kierki bot protocol (docs/bot-protocol.md) in C: it answers hello with
 * ready and every decision with the first legal action offered (the lowest id), or with the
 * Nth one when started with --level N (clamped to the legal ones). No JSON library: it looks for
 * the message type and the "id" fields of "legal", which the engine writes without spaces.
 * Build: gcc -O2 -o lowest examples/bots/lowest.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char line[1 << 20];

int main(int argc, char **argv) {
    int level = 0;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--level") == 0) level = atoi(argv[i + 1]);
    while (fgets(line, sizeof line, stdin)) {
        if (strstr(line, "\"type\":\"hello\"")) {
            puts("{\"type\":\"ready\",\"name\":\"lowest.c\"}");
        } else if (strstr(line, "\"type\":\"decide\"")) {
            char *legal = strstr(line, "\"legal\":[");
            long chosen = -1;
            for (int k = 0; legal && (legal = strstr(legal, "\"id\":")); k++) {
                legal += 5;
                long id = strtol(legal, NULL, 10);
                if (k == 0 || k <= level) chosen = id;
            }
            printf("{\"action\":%ld}\n", chosen);
        } else if (strstr(line, "\"type\":\"bye\"")) {
            break;
        }
        fflush(stdout);
    }
    return 0;
}
