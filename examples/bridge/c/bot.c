/* A complete dennou bot in C for the engine bridge (docs/protocol.md, "The engine bridge").
 *
 * Build: cc -O2 -o bot bot.c
 * Run:   dennou bot run --cmd ./bot --join numeron      (on a host)
 *        dennou match daifugo --bots cmd:./bot,random   (locally)
 *
 * It reads one JSON line at a time from stdin and answers each "turn" with one line
 * {"action": ...}: a random action of "legal" when the turn lists them; otherwise it forms one
 * as "legal_description" says (Numeron: a number that fits every judgment of its own calls so
 * far), else it takes one of "legal_sample". Other lines (hello, event, end) are read and
 * ignored; it exits on "quit" or at the end of its input. Its notes go to stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- a small JSON reader: each value keeps where it is in the line ------------------------ */
enum kind { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct node {
    enum kind kind;
    const char *start, *end; /* the value's text (a string's includes its quotes) */
    struct node *child;      /* first element or member value */
    struct node *next;       /* next sibling */
    const char *key, *key_end; /* a member's name (without quotes) */
} node;

static const char *skip(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

static node *parse(const char **pp);

static const char *parse_string_end(const char *p) { /* p at the opening quote */
    p++;
    while (*p && *p != '"') p += (*p == '\\' && p[1]) ? 2 : 1;
    return *p ? p + 1 : NULL;
}

static node *new_node(enum kind k, const char *start) {
    node *n = calloc(1, sizeof *n);
    if (!n) { fprintf(stderr, "out of memory\n"); exit(1); }
    n->kind = k;
    n->start = start;
    return n;
}

static node *parse(const char **pp) {
    const char *p = skip(*pp);
    node *n;
    if (*p == '{' || *p == '[') {
        int obj = *p == '{';
        n = new_node(obj ? J_OBJ : J_ARR, p);
        node **tail = &n->child;
        p = skip(p + 1);
        if (*p == (obj ? '}' : ']')) { n->end = p + 1; *pp = p + 1; return n; }
        for (;;) {
            const char *key = NULL, *key_end = NULL;
            if (obj) {
                if (*p != '"') return NULL;
                key = p + 1;
                const char *e = parse_string_end(p);
                if (!e) return NULL;
                key_end = e - 1;
                p = skip(e);
                if (*p != ':') return NULL;
                p++;
            }
            node *child = parse(&p);
            if (!child) return NULL;
            child->key = key;
            child->key_end = key_end;
            *tail = child;
            tail = &child->next;
            p = skip(p);
            if (*p == ',') { p = skip(p + 1); continue; }
            if (*p == (obj ? '}' : ']')) { n->end = p + 1; *pp = p + 1; return n; }
            return NULL;
        }
    }
    if (*p == '"') {
        n = new_node(J_STR, p);
        n->end = parse_string_end(p);
        if (!n->end) return NULL;
    } else if (!strncmp(p, "null", 4)) {
        n = new_node(J_NULL, p); n->end = p + 4;
    } else if (!strncmp(p, "true", 4)) {
        n = new_node(J_BOOL, p); n->end = p + 4;
    } else if (!strncmp(p, "false", 5)) {
        n = new_node(J_BOOL, p); n->end = p + 5;
    } else {
        n = new_node(J_NUM, p);
        char *e;
        strtod(p, &e);
        if (e == p) return NULL;
        n->end = e;
    }
    *pp = n->end;
    return n;
}

static void release(node *n) {
    while (n) {
        node *next = n->next;
        release(n->child);
        free(n);
        n = next;
    }
}

static node *get(const node *obj, const char *key) {
    if (!obj || obj->kind != J_OBJ) return NULL;
    size_t len = strlen(key);
    for (node *c = obj->child; c; c = c->next)
        if ((size_t)(c->key_end - c->key) == len && !strncmp(c->key, key, len)) return c;
    return NULL;
}

static int is_string(const node *n, const char *text) { /* plain strings only (no escapes) */
    size_t len = strlen(text);
    return n && n->kind == J_STR && (size_t)(n->end - n->start) == len + 2 &&
           !strncmp(n->start + 1, text, len);
}

static int count(const node *arr) {
    int k = 0;
    if (arr && arr->kind == J_ARR)
        for (node *c = arr->child; c; c = c->next) k++;
    return k;
}

static node *item(const node *arr, int i) {
    node *c = arr->child;
    while (c && i-- > 0) c = c->next;
    return c;
}

static void answer_raw(const node *action) {
    printf("{\"action\": %.*s}\n", (int)(action->end - action->start), action->start);
    fflush(stdout);
}

/* --- Numeron: a number that fits every judgment of this seat's calls so far ---------------- */
static int judge(const char *secret, const char *guess, int n, int *eat, int *bite) {
    *eat = *bite = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (guess[i] == secret[j]) (i == j ? (*eat)++ : (*bite)++);
    return 0;
}

static int fits(const char *candidate, int n, const node *log, int seat) {
    for (node *e = log ? log->child : NULL; e; e = e->next) {
        node *data = get(e, "data");
        node *who = get(data, "seat"), *number = get(data, "number");
        node *eat = get(data, "eat"), *bite = get(data, "bite");
        if (!is_string(get(e, "kind"), "call") || !who || !number || !eat || !bite) continue;
        if (atoi(who->start) != seat || number->end - number->start != n + 2) continue;
        int e2, b2;
        judge(candidate, number->start + 1, n, &e2, &b2);
        if (e2 != atoi(eat->start) || b2 != atoi(bite->start)) return 0;
    }
    return 1;
}

/* Forms {"type": T, "number": "ddd"} from {"form": {"type": T, "number": "<3 distinct digits 0-9>"}}. */
static int numeron(const node *description, const node *view, int seat) {
    node *form = get(description, "form");
    node *type = get(form, "type"), *pattern = get(form, "number");
    if (!type || type->kind != J_STR || !pattern || pattern->kind != J_STR) return 0;
    int n = atoi(pattern->start + 2); /* "<3 ..." */
    int distinct = strstr(pattern->start, "distinct") && strstr(pattern->start, "distinct") < pattern->end;
    if (n < 1 || n > 10) return 0;
    char digits[11] = {0}, best[11] = {0};
    int found = 0, total = 1, seen = 0;
    for (int i = 0; i < n; i++) total *= 10;
    node *log = get(view, "log");
    int want_fit = is_string(type, "call");
    /* start at a random number, walk all of them: the first that fits */
    int offset = rand() % total;
    for (int k = 0; k < total && !found; k++) {
        int v = (offset + k) % total, used = 0, ok = 1;
        for (int i = n - 1; i >= 0; i--, v /= 10) {
            digits[i] = (char)('0' + v % 10);
            if (distinct && (used >> (v % 10) & 1)) ok = 0;
            used |= 1 << (v % 10);
        }
        if (!ok) continue;
        if (!seen) { memcpy(best, digits, (size_t)n); seen = 1; }
        if (!want_fit || fits(digits, n, log, seat)) { memcpy(best, digits, (size_t)n); found = 1; }
    }
    if (!seen) return 0;
    printf("{\"action\": {\"type\": %.*s, \"number\": \"%s\"}}\n",
           (int)(type->end - type->start), type->start, best);
    fflush(stdout);
    return 1;
}

static void turn(const node *msg) {
    node *legal = get(msg, "legal"), *sample = get(msg, "legal_sample");
    int seat = get(msg, "seat") ? atoi(get(msg, "seat")->start) : 0;
    if (count(legal) > 0) {
        answer_raw(item(legal, rand() % count(legal)));
        return;
    }
    if (numeron(get(msg, "legal_description"), get(msg, "view"), seat)) return;
    if (count(sample) > 0) {
        answer_raw(item(sample, rand() % count(sample)));
        return;
    }
    fprintf(stderr, "a turn with nothing to choose from\n");
    printf("{\"action\": null}\n");
    fflush(stdout);
}

int main(void) {
    char *line = NULL;
    size_t size = 0;
    srand(12345);
    while (getline(&line, &size, stdin) != -1) {
        const char *p = line;
        node *msg = parse(&p);
        if (!msg) {
            fprintf(stderr, "cannot read a line\n");
            continue;
        }
        node *type = get(msg, "type");
        if (is_string(type, "hello")) {
            fprintf(stderr, "hello: seat %.*s\n", (int)(get(msg, "seat")->end - get(msg, "seat")->start),
                    get(msg, "seat")->start);
        } else if (is_string(type, "turn")) {
            turn(msg);
        } else if (is_string(type, "quit")) {
            release(msg);
            break;
        }
        release(msg);
    }
    free(line);
    return 0;
}
