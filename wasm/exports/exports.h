/* What every WebAssembly export file shares: the attribute that names an export (the bridge
 * calls it by that name, so a rename of the C function cannot break it silently). */
#ifndef LIMBER_EXPORTS_H
#define LIMBER_EXPORTS_H

#define LBW_EXPORT(name) __attribute__((export_name(#name)))

#endif
