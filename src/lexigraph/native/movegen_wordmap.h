/* movegen_wordmap.h: the best plays found in the word map, best window first (issue 34), a part of movegen.c.
 *
 * Included by movegen.c once its MoveGenerator, its records and its bounds are defined (it reads them all: this is
 * not a header for other files). For a ranking with `top` > 0 and pruning, when the tables hold a word map the rack
 * fits and the rack has a blank, is a word by itself or holds at most four tiles (word_map_path_applies: where it
 * pays), the plays are looked up instead of walked in the word graph:
 *
 * 1. Windows. Every extent a play can have is a window (orientation, line, start, length): no board tile just
 *    before or after it, at least one empty square, every empty square fillable by some rack tile (its
 *    cross-check), no more empty squares than rack tiles, an anchor among them (on an empty board, the start
 *    square), two squares or more; a down window of one new tile that makes an across word is left out (the
 *    across pass makes that play, as in the graph walk). A play has one window, so each play comes once.
 * 2. Bounds. A window's first bound is movegen.c's extent_score (the rack's best points on the best multipliers,
 *    or, when lower, each square's best rack tile its cross-check allows; its cross-words, the bingo bonus) plus the best leave value for that many tiles. A subset's bound on a window
 *    is the lower of that score with the subset's own points and of each of its tiles on its best square allowed,
 *    plus its leave. A window through no board tile, or of the whole rack, is bounded again when it reaches the top
 *    of the heap: by the best of its subsets' bounds, only the subsets that make a word alone counting through no
 *    board tile (a window no subset fills is dropped); the whole rack through board tiles is dropped when it and
 *    the board's letters make no word (one lookup).
 * 3. Best first. The windows come from a heap, highest bound first; one bounded again goes back into it. Once the
 *    record heap holds `top` plays, the first window whose bound is below the heap's worst stops the generation
 *    (every other one is lower). Within a window the rack's subsets of its size come leave first: the first whose
 *    leave plus the window's first score bound is below the worst ends the window, and one whose own bound is
 *    below it is passed over. Skips are strict (<): a play equal to the worst still competes on the ranking's
 *    tie-breaks. The windows of the same line with as many tiles and the same board letters are searched together.
 * 4. Lookups. Each subset's letters, merged with the window's board letters, are looked up with the subset's blanks
 *    (lx_wordmap_lookup: one hit per blank letters); each word must match the board letters and the cross-checks
 *    of the empty squares, then every placement of the blanks among the squares of their letters is a play, scored
 *    as the graph walk scores it and recorded by record_play (the same equity sum, the same bytes).
 *
 * The equity bound holds for the values record_play computes: the score bound is an integer at least the play's
 * score, the leave bound at least its leave value, and floating-point addition is monotone; opening penalties are
 * added only when none is positive (else the graph walk runs). Falls back to the graph walk (returns 0 before
 * recording anything) when the map cannot answer: a window longer than its longest words, shorter lengths than two
 * missing, more subsets than WINDOW_MOST_SUBSETS, a forged record. No state outlives a call (reentrant: one call
 * per thread at a time, any number of threads).
 */

/* The most rack subsets the word map path enumerates (a rack of 12 distinct tiles); larger racks walk the graph. */
#define WINDOW_MOST_SUBSETS 4096

/* A sub-multiset of the rack: its letters (codes ascending, the blanks apart), its size, its leave. */
typedef struct {
    uint8_t letters[LX_MAX_RACK];
    uint8_t letter_count, blanks, size;
    uint8_t word_alone; /* its tiles alone make a word of their size (looked up when some window needs it) */
    int used;           /* the leave index of the tiles it uses */
    uint8_t points_desc[LX_MAX_RACK];     /* its tiles' points, highest first (a blank 0; points are bytes) */
    uint16_t point_sums[LX_MAX_RACK + 1]; /* point_sums[k]: the sum of the k highest */
    double leave;                         /* its leave value (the sort key; 0 when not ranking by equity) */
} RackSubset;

/* An extent of a play (see the file comment). */
typedef struct {
    double bound;    /* the best key a play of it can reach */
    int score_bound; /* the best score */
    uint8_t orientation, line, start, length, tiles, through_count;
    uint8_t refined;                    /* the bound asked of the word map yet (window_bound) */
    uint8_t searched;                   /* its plays made (with a sibling's: search_window) */
    uint8_t through[LX_MAX_BOARD_SIZE]; /* the board's letters on it, ascending */
} Window;

typedef struct {
    double bound;
    uint32_t window;
} WindowEntry;

typedef struct {
    RackSubset *subsets; /* by size ascending, then leave descending */
    int subset_count;
    int first_of_size[LX_MAX_RACK + 2]; /* subsets of size m: first_of_size[m] .. first_of_size[m + 1] */
    uint64_t alone_known;               /* bit m: the subsets of m tiles looked up alone */
    uint64_t alone_lengths;             /* bit m: some m tiles alone make a word */
    Window *windows;
    size_t window_count, window_capacity;
    size_t line_windows[2][LX_MAX_BOARD_SIZE + 1]; /* the windows of line l: line_windows[o][l] .. [o][l + 1] */
    WindowEntry *heap; /* a max-heap on the windows' bounds (held beside their indices: a sift reads no window) */
    size_t heap_size;
    LxWordMapHit *hits;
    int hit_cap; /* the most hits a lookup gives (one per pair of letters of two blanks) */
    int failed;  /* a lookup the map could not answer: the graph walk runs instead */
} WindowSearch;

/* The subset's points, highest first (its letters are ascending by code), and their running sums. */
static void
sort_subset_points(const MoveGenerator *gen, RackSubset *subset)
{
    for (int k = 0; k < subset->size; k++)
        subset->points_desc[k] = 0;
    for (int k = 0; k < subset->letter_count; k++) {
        int points = gen->tile_points[subset->letters[k]], j = k;
        while (j > 0 && subset->points_desc[j - 1] < points) {
            subset->points_desc[j] = subset->points_desc[j - 1];
            j--;
        }
        subset->points_desc[j] = (uint8_t)points;
    }
    subset->point_sums[0] = 0;
    for (int k = 0; k < subset->size; k++)
        subset->point_sums[k + 1] = (uint16_t)(subset->point_sums[k] + subset->points_desc[k]);
}

/* The n subsets made, into search->subsets by size (a counting sort), then leave descending within a size
 * (insertion: a size of a 7-tile rack holds at most 35), each moved once; `order` is scratch for n indices. */
static void
order_subsets(WindowSearch *search, const RackSubset *made, uint16_t *order, int n)
{
    int count[LX_MAX_RACK + 2] = {0};
    for (int i = 0; i < n; i++)
        count[made[i].size + 1]++;
    for (int m = 0; m <= LX_MAX_RACK; m++)
        count[m + 1] += count[m];
    for (int m = 0; m <= LX_MAX_RACK + 1; m++)
        search->first_of_size[m] = count[m];
    for (int i = 0; i < n; i++)
        order[count[made[i].size]++] = (uint16_t)i;
    for (int m = 0; m <= LX_MAX_RACK; m++)
        for (int i = search->first_of_size[m] + 1; i < search->first_of_size[m + 1]; i++) {
            uint16_t held = order[i];
            int j = i;
            while (
                j > search->first_of_size[m]
                && (made[order[j - 1]].leave < made[held].leave
                    || (made[order[j - 1]].leave == made[held].leave && made[order[j - 1]].used > made[held].used))) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = held;
        }
    for (int i = 0; i < n; i++)
        search->subsets[i] = made[order[i]];
}

/* Every non-empty sub-multiset of the rack (an odometer over its codes), sorted by size, then leave; 0, or -1 when
 * the rack has too many. */
static int
enumerate_subsets(MoveGenerator *gen, WindowSearch *search)
{
    int codes[LX_MAX_MOVE_TILE_CODES], digits[LX_MAX_MOVE_TILE_CODES] = {0}, distinct = 0;
    long total = 1;
    for (int code = 0; code < gen->code_count; code++)
        if (gen->rack_counts[code]) {
            codes[distinct++] = code;
            total *= gen->rack_counts[code] + 1;
            if (total > WINDOW_MOST_SUBSETS)
                return -1;
        }
    search->subsets = malloc(2 * (size_t)total * sizeof(RackSubset)); /* the second half: made, before sorting */
    uint16_t *order = malloc((size_t)total * sizeof(uint16_t));
    if (!search->subsets || !order) {
        free(order);
        gen->error = ERROR_MEMORY;
        return -1;
    }
    RackSubset *made = search->subsets + total;
    int n = 0;
    for (;;) {
        int d = 0;
        while (d < distinct && digits[d] == gen->rack_counts[codes[d]]) /* the odometer's next reading */
            digits[d++] = 0;
        if (d == distinct)
            break;
        digits[d]++;
        RackSubset *subset = &made[n++];
        subset->letter_count = subset->blanks = subset->size = 0;
        subset->word_alone = 0;
        subset->used = 0;
        for (int k = 0; k < distinct; k++) {
            subset->used += digits[k] * gen->place_values[codes[k]];
            subset->size = (uint8_t)(subset->size + digits[k]);
            if (codes[k] == 0)
                subset->blanks = (uint8_t)digits[k];
            else
                for (int j = 0; j < digits[k]; j++)
                    subset->letters[subset->letter_count++] = (uint8_t)codes[k];
        }
        subset->leave = gen->by_equity && gen->leave_values ? gen->leave_values[subset->used] : 0.0;
        sort_subset_points(gen, subset);
    }
    search->subset_count = n;
    order_subsets(search, made, order, n);
    free(order);
    return 0;
}

/* Which subsets of m tiles make a word alone, and whether any does (once per size and call, when the first window
 * of m tiles through no board tile reaches the top of the heap: the best windows come first, and may make the
 * smaller sizes' lookups needless). */
static void
look_up_subsets_alone(MoveGenerator *gen, WindowSearch *search, int m)
{
    const LxWordMap *map = gen->word_map;
    search->alone_known |= (uint64_t)1 << m;
    if (m < map->min_length || m > map->max_length)
        return;
    for (int i = search->first_of_size[m]; i < search->first_of_size[m + 1]; i++) {
        RackSubset *subset = &search->subsets[i];
        int word = lx_wordmap_has_word(map, m, subset->letters, subset->letter_count, subset->blanks);
        if (word < 0) {
            search->failed = 1;
            return;
        }
        subset->word_alone = (uint8_t)word;
        if (word)
            search->alone_lengths |= (uint64_t)1 << m;
    }
}

static Window *
new_window(MoveGenerator *gen, WindowSearch *search)
{
    if (search->window_count == search->window_capacity) {
        size_t capacity = search->window_capacity ? 2 * search->window_capacity : 256;
        Window *grown = realloc(search->windows, capacity * sizeof(Window));
        if (!grown) {
            gen->error = ERROR_MEMORY;
            return NULL;
        }
        search->windows = grown;
        search->window_capacity = capacity;
    }
    return &search->windows[search->window_count++];
}

/* What the window's squares are, for a bound: movegen.c's Extent, and per rack letter the most a point of it can
 * count on the window (its best square among those whose cross-check allows it: the letter multiplier times the
 * word's multipliers, plus the cross-word's share). Made again from the board when needed: windows are many, and
 * few are searched. */
typedef struct {
    Extent extent;
    int best_square[LX_MAX_MOVE_TILE_CODES]; /* per rack letter; 0: no square takes it */
} WindowFit;

static void
window_extent(const MoveGenerator *gen, const Window *window, WindowFit *fit)
{
    const int orientation = window->orientation, base = window->line * gen->size + window->start;
    Extent *extent = &fit->extent;
    extent_clear(extent);
    for (int i = 0; i < window->length; i++) {
        if (gen->board.line_tiles[orientation][base + i])
            extent->board_points += gen->board.line_points[orientation][base + i];
        else
            extent_fills(extent, gen, orientation, base + i);
    }
    for (int k = 0; k < gen->rack_letter_count; k++)
        fit->best_square[gen->rack_letters[k]] = 0;
    for (int i = 0; i < window->length; i++) {
        const int square = base + i;
        if (gen->board.line_tiles[orientation][square])
            continue;
        const int letter = gen->board.letter_multipliers[orientation][square];
        const int counted = letter * extent->word_multiplier
                            + (gen->board.has_cross_word[orientation][square]
                                   ? letter * gen->board.word_multipliers[orientation][square]
                                   : 0);
        const uint64_t allowed = gen->board.cross_checks[orientation][square];
        for (int k = 0; k < gen->rack_letter_count; k++) {
            const int code = gen->rack_letters[k];
            if ((allowed >> code & 1u) && counted > fit->best_square[code])
                fit->best_square[code] = counted;
        }
    }
}

/* The best score the subset's tiles can make on the window: the lower of two bounds, extent_score with the subset's
 * points in place of the rack's best (the same pairings), and each tile on its best square allowed (the squares
 * apart); -1 when a tile fits no square of the window (no play). */
static int
subset_score(const MoveGenerator *gen, const WindowFit *fit, const RackSubset *subset)
{
    const Extent *extent = &fit->extent;
    const uint16_t *sums = subset->point_sums;
    int fixed = extent->board_points * extent->word_multiplier + extent->cross_points
                + (extent->tiles_placed == gen->rack_size ? gen->bingo_bonus : 0);
    int by_letter = fixed;
    for (int k = 0; k < subset->letter_count; k++) {
        const int code = subset->letters[k];
        if (!fit->best_square[code])
            return -1;
        by_letter += gen->tile_points[code] * fit->best_square[code];
    }
    int main_word = 0, taken = 0;
    for (int letter = 4; letter >= 1; letter--) {
        int squares = extent->squares_by_letter_multiplier[letter];
        main_word += letter * (sums[taken + squares] - sums[taken]);
        taken += squares;
    }
    int paired = fixed + main_word * extent->word_multiplier;
    for (int i = 0; i < extent->cross_count; i++)
        paired += extent->cross_multipliers[i] * subset->points_desc[i];
    return paired < by_letter ? paired : by_letter;
}

/* The window's equity bound from its subsets, or 0 when no play can fill it (see the file comment, step 2): the
 * best over the subsets of its size (through no board tile, those that make a word alone) of their score bound
 * plus their leave. */
static int
window_bound(MoveGenerator *gen, WindowSearch *search, Window *window)
{
    const LxWordMap *map = gen->word_map;
    if (!window->through_count) {
        if (!(search->alone_known >> window->tiles & 1))
            look_up_subsets_alone(gen, search, window->tiles);
        if (search->failed || !(search->alone_lengths >> window->tiles & 1))
            return 0;
    } else if (window->tiles == gen->tiles_on_rack) {
        uint8_t letters[LX_WORDMAP_MAX_LENGTH];
        int n = 0, i = 0, j = 0;
        while (i < gen->rack_letter_count || j < window->through_count)
            letters[n++] = (j >= window->through_count
                            || (i < gen->rack_letter_count && gen->rack_letters[i] <= window->through[j]))
                               ? gen->rack_letters[i++]
                               : window->through[j++];
        int word = lx_wordmap_has_word(map, window->length, letters, n, gen->rack_blanks);
        if (word < 0)
            search->failed = 1;
        if (word <= 0)
            return 0;
    }
    WindowFit fit;
    window_extent(gen, window, &fit);
    double best = -1e300;
    int found = 0;
    for (int s = search->first_of_size[window->tiles]; s < search->first_of_size[window->tiles + 1]; s++) {
        const RackSubset *subset = &search->subsets[s];
        if (!window->through_count && !subset->word_alone)
            continue;
        const int score = subset_score(gen, &fit, subset);
        if (score < 0)
            continue; /* a tile of it fits no square */
        double bound = (double)score + subset->leave;
        if (!found || bound > best)
            best = bound;
        found = 1;
    }
    window->bound = best;
    return found;
}

/* The windows starting at `start` of one line (see the file comment, step 1), with their bounds. */
static void
windows_from(MoveGenerator *gen, WindowSearch *search, int orientation, int line, int start)
{
    const int size = gen->size, base = line * size;
    const uint8_t *tiles = gen->board.line_tiles[orientation];
    const uint64_t fillable = gen->rack_counts[0] ? ~(uint64_t)1 : gen->rack_tile_set;
    Extent extent;
    extent_clear(&extent);
    uint8_t through[LX_MAX_BOARD_SIZE];
    int through_count = 0, anchored = 0, last_new = -1;
    for (int end = start; end < size; end++) {
        const int square = base + end;
        if (tiles[square]) {
            extent.board_points += gen->board.line_points[orientation][square];
            int j = through_count++; /* kept ascending */
            while (j > 0 && through[j - 1] > tiles[square]) {
                through[j] = through[j - 1];
                j--;
            }
            through[j] = tiles[square];
        } else {
            if (extent.tiles_placed == gen->tiles_on_rack || !(gen->board.cross_checks[orientation][square] & fillable))
                return;
            extent_fills(&extent, gen, orientation, square);
            anchored |= gen->board.is_anchor[orientation][square];
            last_new = square;
        }
        if ((end + 1 < size && tiles[square + 1]) || end == start || !extent.tiles_placed || !anchored)
            continue; /* the word would go on; one square; no tile played; not joined to the board */
        if (orientation == DOWN && extent.tiles_placed == 1 && gen->board.has_cross_word[DOWN][last_new])
            continue; /* the across pass makes this play */
        const int length = end - start + 1;
        if (length > gen->word_map->max_length) {
            search->failed = 1;
            return;
        }
        Window *window = new_window(gen, search);
        if (!window)
            return;
        window->orientation = (uint8_t)orientation;
        window->line = (uint8_t)line;
        window->start = (uint8_t)start;
        window->length = (uint8_t)length;
        window->tiles = (uint8_t)extent.tiles_placed;
        window->through_count = (uint8_t)through_count;
        memcpy(window->through, through, (size_t)through_count);
        window->score_bound = extent_score(gen, &extent);
        window->bound = (double)window->score_bound + (gen->by_equity ? gen->best_leave_by_tiles[window->tiles] : 0.0);
        window->refined = window->searched = 0;
    }
}

/* The windows' heap (best bound at the root): pops come best bound first. */
static void
sift_window_down(WindowSearch *search, size_t i)
{
    WindowEntry *heap = search->heap;
    const size_t n = search->heap_size;
    WindowEntry held = heap[i];
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && heap[child + 1].bound > heap[child].bound)
            child++;
        if (!(heap[child].bound > held.bound))
            break;
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = held;
}

static void
push_window(WindowSearch *search, uint32_t w)
{
    WindowEntry *heap = search->heap;
    WindowEntry held = {search->windows[w].bound, w};
    size_t i = search->heap_size++;
    while (i > 0 && held.bound > heap[(i - 1) / 2].bound) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = held;
}

static uint32_t
pop_window(WindowSearch *search)
{
    uint32_t top = search->heap[0].window;
    search->heap[0] = search->heap[--search->heap_size];
    sift_window_down(search, 0);
    return top;
}

/* The play of `word` on the window with its blanks on the squares blank_at[0 .. blank_count): scored as the graph
 * walk scores it, then recorded. */
static void
record_window_play(MoveGenerator *gen, const Window *window, const RackSubset *subset, const uint8_t *word,
                   const int *blank_at, int blank_count)
{
    const int orientation = window->orientation, base = window->line * gen->size + window->start;
    const uint8_t *tiles = gen->board.line_tiles[orientation];
    int main_word_points = 0, main_word_multiplier = 1, cross_word_scores = 0;
    for (int i = 0; i < window->length; i++) {
        const int square = base + i;
        if (tiles[square]) {
            main_word_points += gen->board.line_points[orientation][square];
            gen->word[i] = 0;
            continue;
        }
        int blank = (blank_count > 0 && blank_at[0] == i) || (blank_count > 1 && blank_at[1] == i);
        int points = blank ? 0 : gen->tile_points[word[i]] * gen->board.letter_multipliers[orientation][square];
        int multiplier = gen->board.word_multipliers[orientation][square];
        main_word_points += points;
        main_word_multiplier *= multiplier;
        if (gen->board.has_cross_word[orientation][square])
            cross_word_scores += (gen->board.cross_scores[orientation][square] + points) * multiplier;
        gen->word[i] = (uint8_t)(blank ? (word[i] | LX_BLANK_FLAG) : word[i]);
    }
    gen->orientation = orientation;
    gen->line = window->line;
    gen->word_start = window->start;
    gen->word_length = window->length;
    gen->leave_index = subset->used;
    record_play(gen, main_word_points * main_word_multiplier + cross_word_scores
                         + (window->tiles == gen->rack_size ? gen->bingo_bonus : 0));
}

/* The word placed on the window, if its letters fit the board's and the cross-checks; then each placement of the
 * hit's blanks (their letters `blank_letters`, ascending) among the new squares holding those letters. */
static void
place_word(MoveGenerator *gen, const Window *window, const RackSubset *subset, const uint8_t *word,
           const uint8_t *blank_letters)
{
    const int orientation = window->orientation, base = window->line * gen->size + window->start;
    const uint8_t *tiles = gen->board.line_tiles[orientation];
    for (int i = 0; i < window->length; i++) {
        const int square = base + i;
        if (tiles[square] ? tiles[square] != word[i]
                          : !((gen->board.cross_checks[orientation][square] >> word[i]) & 1u))
            return;
    }
    if (!subset->blanks) {
        record_window_play(gen, window, subset, word, NULL, 0);
        return;
    }
    int at[2];
    for (at[0] = 0; at[0] < window->length; at[0]++) {
        if (tiles[base + at[0]] || word[at[0]] != blank_letters[0])
            continue;
        if (subset->blanks == 1) {
            record_window_play(gen, window, subset, word, at, 1);
            continue;
        }
        /* two blanks: the second on a later square when both stand for one letter (each pair once) */
        for (at[1] = blank_letters[1] == blank_letters[0] ? at[0] + 1 : 0; at[1] < window->length; at[1]++)
            if (!tiles[base + at[1]] && word[at[1]] == blank_letters[1] && at[1] != at[0])
                record_window_play(gen, window, subset, word, at, 2);
    }
}

/* The windows searched with `window`: itself and its siblings, the windows of its line not searched yet with as many
 * tiles and the same board letters (other starts), whose lookups are the same; their extents, and the best score
 * bound among them. */
static int
siblings_of(const MoveGenerator *gen, const WindowSearch *search, const Window *window, const Window **group,
            WindowFit *fits, int *score_bound)
{
    int n = 0;
    *score_bound = window->score_bound;
    const size_t first = search->line_windows[window->orientation][window->line];
    const size_t end = search->line_windows[window->orientation][window->line + 1];
    for (size_t w = first; w < end; w++) {
        const Window *other = &search->windows[w];
        if (other != window
            && (other->searched || other->tiles != window->tiles || other->length != window->length
                || memcmp(other->through, window->through, window->through_count)
                || (heap_full(gen) && other->bound < worst_key(gen))))
            continue; /* not a sibling; or one that cannot make the list, now or later (the worst only rises) */
        group[n] = other;
        window_extent(gen, other, &fits[n++]);
        if (other->score_bound > *score_bound)
            *score_bound = other->score_bound;
    }
    return n;
}

/* The plays of one window and its siblings: the rack's subsets of their size leave first, each looked up once with
 * their board letters, each word placed at every start. */
static void
search_window(MoveGenerator *gen, WindowSearch *search, const Window *window)
{
    const LxWordMap *map = gen->word_map;
    const int m = window->tiles;
    const Window *group[LX_MAX_BOARD_SIZE];
    WindowFit fits[LX_MAX_BOARD_SIZE];
    int score_bound;
    const int siblings = siblings_of(gen, search, window, group, fits, &score_bound);
    for (int k = 0; k < siblings; k++)
        ((Window *)group[k])->searched = 1;
    for (int s = search->first_of_size[m]; s < search->first_of_size[m + 1] && !gen->error; s++) {
        const RackSubset *subset = &search->subsets[s];
        if (heap_full(gen) && (double)score_bound + subset->leave < worst_key(gen))
            break; /* the subsets after it keep worse leaves */
        if (!window->through_count && !subset->word_alone)
            continue;
        int live = 0; /* the siblings where its tiles may score enough: bit k */
        for (int k = 0; k < siblings; k++) {
            if (heap_full(gen) && (double)group[k]->score_bound + subset->leave < worst_key(gen))
                continue; /* its tiles score too little there, however they fit */
            const int score = subset_score(gen, &fits[k], subset);
            if (score >= 0 && (!heap_full(gen) || (double)score + subset->leave >= worst_key(gen)))
                live |= 1 << k;
        }
        if (!live)
            continue;
        if (lx_deadline_passed(&gen->deadline)) {
            gen->error = ERROR_DEADLINE;
            return;
        }
        int hits;
        if (!subset->blanks) {
            /* the words' rows straight from the table: the codes are the rack's and the board's (read_board checked
             * them, prepare_word_map their range), sorted, and the window's length is the map's (windows_from) */
            const uint64_t key = lx_wordmap_key_merged(map, subset->letters, subset->letter_count, window->through,
                                                       window->through_count);
            hits = lx_wordmap_probe(map, window->length, 0, key, &search->hits[0].first, &search->hits[0].count);
            search->hits[0].blanks[0] = search->hits[0].blanks[1] = 0;
        } else {
            uint8_t letters[LX_WORDMAP_MAX_LENGTH];
            int n = 0, i = 0, j = 0;
            while (i < subset->letter_count || j < window->through_count)
                letters[n++] = (j >= window->through_count
                                || (i < subset->letter_count && subset->letters[i] <= window->through[j]))
                                   ? subset->letters[i++]
                                   : window->through[j++];
            hits = lx_wordmap_lookup(map, window->length, letters, n, subset->blanks, search->hits, search->hit_cap);
        }
        if (hits < 0) {
            search->failed = 1;
            return;
        }
        for (int h = 0; h < hits && !gen->error; h++)
            for (uint32_t row = 0; row < search->hits[h].count && !gen->error; row++)
                for (int k = 0; k < siblings && !gen->error; k++)
                    if (live >> k & 1)
                        place_word(gen, group[k], subset,
                                   lx_wordmap_row(map, window->length, search->hits[h].first + row),
                                   search->hits[h].blanks);
    }
}

/* Whether this generation takes the word map path: a map the rack fits (prepare_word_map), a bounded heap, no
 * positive opening penalty in play, and a rack the path pays for. */
static int
word_map_path_applies(const MoveGenerator *gen)
{
    if (!gen->word_map || !gen->prune || gen->top <= 0 || gen->word_map->min_length > 2
        || gen->tiles_on_rack > LX_MAX_RACK)
        return 0;
    if (gen->opening_penalty && gen->board.board_empty)
        for (int i = 0; i < 2 * gen->size * gen->size; i++)
            if (gen->opening_penalty[i] > 0)
                return 0;
    const int mode = __atomic_load_n(&lx_movegen_word_map_path, __ATOMIC_RELAXED);
    if (mode != LX_WORD_MAP_PATH_CHOSEN)
        return mode == LX_WORD_MAP_PATH_ALWAYS;
    /* Where it pays (measured on self-play's positions and on the benchmark's: bench_best_paths.py): a blank on the
     * rack, or a rack that is a word by itself, whose bingo keeps the graph walk's bounds high everywhere, or a rack
     * of at most four tiles (the end of a game: few subsets to look up); the other racks' dead ends cost the graph
     * walk less than their lookups (most miss). */
    return gen->rack_blanks > 0 || gen->tiles_on_rack <= 4
           || lx_wordmap_has_word(gen->word_map, gen->tiles_on_rack, gen->rack_letters, gen->rack_letter_count, 0) == 1;
}

static void
free_search(WindowSearch *search)
{
    free(search->subsets);
    free(search->windows);
    free(search->heap);
    free(search->hits);
}

/* The cross-checks of both orientations (across only on an empty board of a symmetric layout) and every window
 * with its first bound, line by line (search->line_windows). */
static void
collect_windows(MoveGenerator *gen, WindowSearch *search, int start_square, const LxBoardState *kept)
{
    const int size = gen->size;
    uint64_t every_tile = 0;
    for (int code = 1; code < gen->code_count; code++)
        every_tile |= (uint64_t)1 << code;
    const uint64_t wanted = gen->rack_counts[0] ? every_tile : gen->rack_tile_set;
    const int last = gen->board.board_empty && gen->across_only_opening ? ACROSS : DOWN;
    for (int orientation = ACROSS; orientation >= last && !gen->error && !search->failed; orientation--) {
        int start = orientation == ACROSS ? start_square : (start_square % size) * size + start_square / size;
        if (!kept) /* else read_board copied them (every code's: the readers below intersect with the rack) */
            find_cross_checks(gen, orientation, every_tile, wanted, start);
        for (int line = 0; line < size && !gen->error && !search->failed; line++) {
            search->line_windows[orientation][line] = search->window_count;
            /* to_anchor[p]: the empty squares from p up to the first anchor (one past the rack: none in reach) */
            int to_anchor[LX_MAX_BOARD_SIZE + 1];
            const uint8_t *tiles = gen->board.line_tiles[orientation] + line * size;
            const uint8_t *anchors = gen->board.is_anchor[orientation] + line * size;
            to_anchor[size] = gen->tiles_on_rack + 1;
            for (int p = size - 1; p >= 0; p--)
                to_anchor[p] = tiles[p] ? to_anchor[p + 1] : anchors[p] ? 1 : to_anchor[p + 1] + 1;
            for (int from = 0; from < size && !gen->error && !search->failed; from++)
                if ((!from || !tiles[from - 1]) && to_anchor[from] <= gen->tiles_on_rack)
                    windows_from(gen, search, orientation, line, from);
        }
        search->line_windows[orientation][size] = search->window_count;
    }
}

/* The windows best bound first (see the file comment, step 3), until the heap's worst beats every bound left. */
static void
search_best_first(MoveGenerator *gen, WindowSearch *search)
{
    /* Best bound first; a window's bound is asked of the word map only when it comes to the top (it can only fall:
     * the window goes back into the heap with it). */
    search->heap = malloc((search->window_count ? search->window_count : 1) * sizeof(WindowEntry));
    if (!search->heap) {
        gen->error = ERROR_MEMORY;
        return;
    }
    for (size_t w = 0; w < search->window_count; w++)
        search->heap[w] = (WindowEntry){search->windows[w].bound, (uint32_t)w};
    search->heap_size = search->window_count;
    for (size_t i = search->heap_size / 2; i-- > 0;)
        sift_window_down(search, i);
    while (search->heap_size && !gen->error && !search->failed) {
        Window *window = &search->windows[search->heap[0].window];
        if (heap_full(gen) && window->bound < worst_key(gen))
            break;
        uint32_t w = pop_window(search);
        if (window->searched)
            continue; /* with a sibling */
        if (!window->refined && (!window->through_count || window->tiles == gen->tiles_on_rack)) {
            window->refined = 1;
            if (window_bound(gen, search, window))
                push_window(search, w);
            continue;
        }
        search_window(gen, search, window);
    }
}

/* The best `top` plays by the word map (the file comment): 1 done (or gen->error set), 0 when the map could not
 * answer and nothing was recorded (the graph walk runs instead). */
static int
generate_plays_by_word_map(MoveGenerator *gen, int start_square, const LxBoardState *kept)
{
    if (!word_map_path_applies(gen))
        return 0;
    WindowSearch search;
    memset(&search, 0, sizeof search);
    int done = 0;
    if (enumerate_subsets(gen, &search) < 0)
        goto out;
    search.hit_cap = gen->word_map->highest_code * (gen->word_map->highest_code + 1) / 2 + 1;
    search.hits = malloc((size_t)search.hit_cap * sizeof(LxWordMapHit));
    if (!search.hits) {
        gen->error = ERROR_MEMORY;
        goto out;
    }
    collect_windows(gen, &search, start_square, kept);
    if (gen->error || search.failed)
        goto out;
    search_best_first(gen, &search);
    if (search.failed && !gen->error) { /* a forged record: forget what was found, walk the graph */
        gen->kept = 0;
        gen->play_count = 0;
        goto out;
    }
    if (!gen->error)
        sort_heap(gen);
    done = 1;
out:
    free_search(&search);
    return done || gen->error;
}
