/*
 * All the verifier asks of zbar (src/render/verify/zbar.ts), as one call: a scanner of its own, with the
 * QR reader alone enabled, in binary mode, reads one grey image, and every payload it finds comes back in
 * one block. Built by build.sh beside this file; the calls and their order are those the verifier made
 * through @undecaf/zbar-wasm, whose verdicts this build is tested against (test/render/verify-zbar-build.test.ts).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zbar.h>

#define EXPORT __attribute__((used, visibility("default")))

/*
 * Reads the `width` × `height` grey image at `grey` (one byte a pixel, row by row), as 255 − grey when
 * `invert` (rewritten in place). The image stays the caller's. Answers a block the caller frees: the
 * number of symbols found (4 bytes), then each symbol's payload as its length (4 bytes) and its bytes;
 * or 0 when zbar could not scan or memory ran out. A scanner is made for each read: zbar's QR reader
 * draws on a random-number generator seeded when the scanner is made, and a verdict must not depend on
 * what was read before.
 */
EXPORT uint8_t *qr_read(uint8_t *grey, uint32_t width, uint32_t height, int invert)
{
    size_t n = (size_t)width * height;
    if (invert)
        for (size_t i = 0; i < n; i++) grey[i] = 255 - grey[i];

    uint8_t *out = NULL;
    zbar_image_scanner_t *scanner = zbar_image_scanner_create();
    zbar_image_t *image = zbar_image_create();
    if (!scanner || !image) goto done;
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0);
    zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1);
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_BINARY, 1);
    zbar_image_set_size(image, width, height);
    zbar_image_set_format(image, zbar_fourcc('Y', '8', '0', '0'));
    /* No cleanup handler: zbar leaves the bytes alone when the image is destroyed. */
    zbar_image_set_data(image, grey, n, NULL);
    if (zbar_scan_image(scanner, image) < 0) goto done;

    uint32_t count = 0;
    size_t size = 4;
    for (const zbar_symbol_t *s = zbar_image_first_symbol(image); s; s = zbar_symbol_next(s)) {
        count++;
        size += 4 + zbar_symbol_get_data_length(s);
    }
    out = malloc(size);
    if (!out) goto done;
    memcpy(out, &count, 4);
    uint8_t *at = out + 4;
    for (const zbar_symbol_t *s = zbar_image_first_symbol(image); s; s = zbar_symbol_next(s)) {
        uint32_t length = zbar_symbol_get_data_length(s);
        memcpy(at, &length, 4);
        memcpy(at + 4, zbar_symbol_get_data(s), length);
        at += 4 + length;
    }

done:
    if (image) zbar_image_destroy(image);
    if (scanner) zbar_image_scanner_destroy(scanner);
    return out;
}
