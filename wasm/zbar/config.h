/*
 * zbar's configuration for build.sh, in place of what its configure script writes: the image scanner with
 * the QR reader alone, no threads, video, window, JPEG or D-Bus (those parts build as their null versions),
 * on Emscripten's libc. Every macro zbar's sources test for is here; any other stays undefined (off).
 */
#define ZBAR_VERSION_MAJOR 0
#define ZBAR_VERSION_MINOR 23
#define ZBAR_VERSION_PATCH 92

#define ENABLE_QRCODE 1
#define ENABLE_SQCODE 0
#define ENABLE_EAN 0
#define ENABLE_DATABAR 0
#define ENABLE_CODE128 0
#define ENABLE_CODE93 0
#define ENABLE_CODE39 0
#define ENABLE_CODABAR 0
#define ENABLE_I25 0
#define ENABLE_PDF417 0

#define HAVE_ERRNO_H 1
#define HAVE_FEATURES_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_POLL_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_UNISTD_H 1
