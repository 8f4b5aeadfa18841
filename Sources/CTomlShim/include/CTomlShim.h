// A small C view of a parsed TOML document, for Swift: a flat array of nodes
// (tables and arrays list their children, in the order they are written), each
// with the line and column of its value and of its key. Parsing is toml++'s.
#ifndef CTOMLSHIM_H
#define CTOMLSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CTOML_TABLE = 0,
    CTOML_ARRAY = 1,
    CTOML_STRING = 2,
    CTOML_INTEGER = 3,
    CTOML_FLOAT = 4,
    CTOML_BOOLEAN = 5,
    CTOML_DATE = 6,
    CTOML_TIME = 7,
    CTOML_DATE_TIME = 8,
} ctoml_kind;

/// 1-based line and column (in characters); 0 when toml++ knows none.
typedef struct {
    uint32_t line;
    uint32_t column;
} ctoml_position;

typedef struct {
    ctoml_kind kind;
    /// Where the value starts.
    ctoml_position position;
    /// Where its key is written (table members); zero for array items and the root.
    ctoml_position key_position;
    /// The key, for table members (UTF-8, not NUL-terminated); NULL otherwise.
    const char *key;
    size_t key_length;
    /// CTOML_STRING: the value (UTF-8, may contain NUL, not NUL-terminated).
    const char *string;
    size_t string_length;
    int64_t integer;
    double number;
    int boolean;
    /// Tables and arrays: their children are nodes[first_child ..< first_child + child_count].
    size_t first_child;
    size_t child_count;
} ctoml_node;

typedef struct {
    /// nodes[0] is the root table; NULL when the text is not valid TOML.
    const ctoml_node *nodes;
    size_t node_count;
    /// NULL on success; else toml++'s description of the first syntax error.
    const char *error;
    /// Where that error is.
    ctoml_position error_position;
    void *owner;
} ctoml_document;

/// Parses `length` bytes of UTF-8 TOML. Returns NULL only when out of memory.
/// Every pointer in the result stays valid until ctoml_free.
ctoml_document *ctoml_parse(const char *text, size_t length);

/// Frees a document and everything it points to. NULL is allowed.
void ctoml_free(ctoml_document *document);

#ifdef __cplusplus
}
#endif

#endif
