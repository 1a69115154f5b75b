#ifndef SWIPE_CEDITLINE_SHIM_H
#define SWIPE_CEDITLINE_SHIM_H
#include <stdio.h>
#include <locale.h>
#include <histedit.h>

/* el_set, el_get and history are variadic, which Swift cannot call: each use
   the REPL needs gets a typed static inline wrapper here. */

/* The C standard streams are mutable globals, which Swift 6 refuses to
   touch directly; these return them. */
static inline FILE *swipe_stdin(void) { return stdin; }
static inline FILE *swipe_stdout(void) { return stdout; }
static inline FILE *swipe_stderr(void) { return stderr; }

typedef char *(*swipe_el_prompt_fn)(EditLine *);
typedef unsigned char (*swipe_el_command_fn)(EditLine *, int);

/* Multibyte input (UTF-8) is decoded with the C locale's LC_CTYPE: without
   this call before el_init, every non-ASCII byte is dropped. */
static inline void swipe_el_adopt_locale(void) {
    setlocale(LC_CTYPE, "");
}

static inline int swipe_el_set_prompt(EditLine *el, swipe_el_prompt_fn prompt) {
    return el_set(el, EL_PROMPT, prompt);
}

static inline int swipe_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

/* With signal handling on, libedit restores the terminal before a signal's
   own handler runs and re-enters edit mode afterwards. */
static inline int swipe_el_set_signal(EditLine *el, int on) {
    return el_set(el, EL_SIGNAL, on);
}

static inline int swipe_el_set_history(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}

static inline int swipe_el_set_clientdata(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}

static inline void *swipe_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}

static inline int swipe_el_add_function(EditLine *el, const char *name, const char *help,
                                        swipe_el_command_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}

static inline int swipe_el_bind(EditLine *el, const char *key, const char *function) {
    return el_set(el, EL_BIND, key, function, (const char *)NULL);
}

/* `bind -k left FUNCTION`: an arrow key by its symbolic name, which libedit
   matches in its arrow table (a plain sequence binding would lose to it). */
static inline int swipe_el_bind_arrow(EditLine *el, const char *arrow, const char *function) {
    return el_set(el, EL_BIND, "-k", arrow, function, (const char *)NULL);
}

/* EL_GETCFN: the function libedit reads each character with (wide). */
typedef int (*swipe_el_read_fn)(EditLine *, wchar_t *);
static inline int swipe_el_set_getcfn(EditLine *el, swipe_el_read_fn fn) {
    return el_set(el, EL_GETCFN, fn);
}

static inline int swipe_history_set_size(History *h, int size) {
    HistEvent ev;
    return history(h, &ev, H_SETSIZE, size);
}

/* H_SETUNIQUE: a line typed twice in a row is stored once. */
static inline int swipe_history_set_unique(History *h, int on) {
    HistEvent ev;
    return history(h, &ev, H_SETUNIQUE, on);
}

static inline int swipe_history_enter(History *h, const char *line) {
    HistEvent ev;
    return history(h, &ev, H_ENTER, line);
}

static inline int swipe_history_load(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_LOAD, path);
}

static inline int swipe_history_save(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_SAVE, path);
}
#endif
