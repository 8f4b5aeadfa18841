// Walks toml++'s tree once into the flat node array of CTomlShim.h. toml++ is
// used header-only with exceptions off (its parse result carries the error),
// so the daemon links no TOML library at run time.
// toml++ checks some of its own assumptions with assert(), and one of them is
// reachable from input (`[é]` reaches parse_key with a character no key may
// start with): an abort would take the daemon down on a reload. Its checks
// instead mark the parse as failed, and the document is refused. (With NDEBUG
// they would become __builtin_assume, undefined behaviour when false.)
#undef NDEBUG
static thread_local bool ctoml_check_failed = false;
#define TOML_ASSERT(expr) ((expr) ? (void)0 : (void)(::ctoml_check_failed = true))

#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0
#define TOML_ENABLE_FORMATTERS 0
#define TOML_ENABLE_WINDOWS_COMPAT 0
#include <toml++/toml.h>

#include <algorithm>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "CTomlShim.h"

namespace {

struct Owner {
    toml::parse_result result;
    std::vector<ctoml_node> nodes;
    std::string error;
    ctoml_document document{};
};

ctoml_position position(const toml::source_position &p) {
    return ctoml_position{static_cast<uint32_t>(p.line), static_cast<uint32_t>(p.column)};
}

bool before(const ctoml_position &a, const ctoml_position &b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
}

ctoml_node describe(const toml::node &n) {
    ctoml_node out{};
    out.position = position(n.source().begin);
    switch (n.type()) {
    case toml::node_type::table: out.kind = CTOML_TABLE; break;
    case toml::node_type::array: out.kind = CTOML_ARRAY; break;
    case toml::node_type::string: {
        out.kind = CTOML_STRING;
        const std::string &s = n.as_string()->get();
        out.string = s.data();
        out.string_length = s.size();
        break;
    }
    case toml::node_type::integer: out.kind = CTOML_INTEGER; out.integer = n.as_integer()->get(); break;
    case toml::node_type::floating_point: out.kind = CTOML_FLOAT; out.number = n.as_floating_point()->get(); break;
    case toml::node_type::boolean: out.kind = CTOML_BOOLEAN; out.boolean = n.as_boolean()->get() ? 1 : 0; break;
    case toml::node_type::date: out.kind = CTOML_DATE; break;
    case toml::node_type::time: out.kind = CTOML_TIME; break;
    default: out.kind = CTOML_DATE_TIME; break;
    }
    return out;
}

// Deeper than this is refused: a config needs 4 levels, and the Swift side
// walks the tree recursively.
constexpr size_t max_depth = 64;

// Breadth first, so that each table's or array's children are contiguous.
// False (with the error set) when the document is nested deeper than max_depth.
bool flatten(Owner &o) {
    std::vector<const toml::node *> sources;
    std::vector<size_t> depth;
    const toml::table &root = o.result.table();
    o.nodes.push_back(describe(root));
    sources.push_back(&root);
    depth.push_back(0);
    for (size_t i = 0; i < o.nodes.size(); i++) {
        const toml::node *n = sources[i];
        if (depth[i] > max_depth) {
            o.error = "tables or lists nested more than " + std::to_string(max_depth) + " levels deep";
            o.document.error = o.error.c_str();
            o.document.error_position = o.nodes[i].key_position.line ? o.nodes[i].key_position : o.nodes[i].position;
            o.nodes.clear();
            return false;
        }
        if (const toml::table *t = n->as_table()) {
            // toml++ keeps a table's keys sorted; the file's order is by position.
            std::vector<std::pair<const toml::key *, const toml::node *>> members;
            members.reserve(t->size());
            for (auto &&[k, v] : *t) members.emplace_back(&k, &v);
            std::stable_sort(members.begin(), members.end(), [](const auto &a, const auto &b) {
                return before(position(a.first->source().begin), position(b.first->source().begin));
            });
            o.nodes[i].first_child = o.nodes.size();
            o.nodes[i].child_count = members.size();
            for (auto &[k, v] : members) {
                ctoml_node c = describe(*v);
                c.key = k->str().data();
                c.key_length = k->str().size();
                c.key_position = position(k->source().begin);
                o.nodes.push_back(c);
                sources.push_back(v);
                depth.push_back(depth[i] + 1);
            }
        } else if (const toml::array *a = n->as_array()) {
            o.nodes[i].first_child = o.nodes.size();
            o.nodes[i].child_count = a->size();
            for (const toml::node &v : *a) {
                o.nodes.push_back(describe(v));
                sources.push_back(&v);
                depth.push_back(depth[i] + 1);
            }
        }
    }
    return true;
}

} // namespace

extern "C" ctoml_document *ctoml_parse(const char *text, size_t length) {
    Owner *o = new (std::nothrow) Owner;
    if (!o) return nullptr;
#if defined(__cpp_exceptions)
    try {
#endif
        ctoml_check_failed = false;
        o->result = toml::parse(std::string_view(text ? text : "", text ? length : 0));
        if (ctoml_check_failed && o->result) {
            // Parsed, but past a failed check: not to be trusted.
            o->error = "text the parser cannot handle (an internal check of toml++ failed)";
            o->document.error = o->error.c_str();
            o->document.error_position = ctoml_position{1, 1};
        } else if (o->result && flatten(*o)) {
            o->document.nodes = o->nodes.data();
            o->document.node_count = o->nodes.size();
        } else if (!o->result) {
            const toml::parse_error &e = o->result.error();
            o->error = std::string(e.description());
            o->document.error = o->error.c_str();
            o->document.error_position = position(e.source().begin);
        }
#if defined(__cpp_exceptions)
    } catch (...) {
        delete o;
        return nullptr;
    }
#endif
    o->document.owner = o;
    return &o->document;
}

extern "C" void ctoml_free(ctoml_document *document) {
    if (document) delete static_cast<Owner *>(document->owner);
}
