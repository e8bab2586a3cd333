"""Render bench:structure's document models (docmodel.ts) to DOCX with python-docx.

    python render-docx.py jobs.json

jobs.json: [{"model": DocModel, "out": "/path/to/file.docx"}, ...]. Real Word
styles carry the structure (Title, Heading 1-3, List Bullet / List Number and
their level 2 and 3 styles, Caption, Table Grid); fonts, sizes, margins and
spacing come from the model's page style; running headers and footers carry
PAGE (and NUMPAGES) fields; two-column documents put the body after the first
section break in w:cols num=2; right-to-left documents mark paragraphs w:bidi,
runs w:rtl and tables w:bidiVisual.
"""

import io
import json
import struct
import sys
import zlib

from docx import Document
from docx.enum.section import WD_SECTION
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Inches, Pt, RGBColor


def rfonts(rpr, name):
    el = rpr.find(qn("w:rFonts"))
    if el is None:
        el = OxmlElement("w:rFonts")
        rpr.insert(0, el)
    for attr in ("w:asciiTheme", "w:hAnsiTheme", "w:eastAsiaTheme", "w:cstheme"):
        if el.get(qn(attr)) is not None:
            del el.attrib[qn(attr)]
    for attr in ("w:ascii", "w:hAnsi", "w:cs", "w:eastAsia"):
        el.set(qn(attr), name)


def size_cs(rpr, points):
    """Complex-script size (w:szCs), so Hebrew and Arabic text is the size Latin text is."""
    el = rpr.find(qn("w:szCs"))
    if el is None:
        el = OxmlElement("w:szCs")
        rpr.append(el)
    el.set(qn("w:val"), str(int(round(points * 2))))


def style_font(style, name, points, bold=None, color=None, italic=None):
    style.font.name = name
    rpr = style.element.get_or_add_rPr()
    rfonts(rpr, name)
    style.font.size = Pt(points)
    size_cs(rpr, points)
    if bold is not None:
        style.font.bold = bold
    if italic is not None:
        style.font.italic = italic
    if color is not None:
        style.font.color.rgb = RGBColor.from_string(color)


def bidi(paragraph):
    ppr = paragraph._p.get_or_add_pPr()
    if ppr.find(qn("w:bidi")) is None:
        ppr.insert(0, OxmlElement("w:bidi"))


def rtl_run(run):
    rpr = run._r.get_or_add_rPr()
    rpr.append(OxmlElement("w:rtl"))


def add_field(paragraph, instr):
    def fld(kind):
        run = paragraph.add_run()
        el = OxmlElement("w:fldChar")
        el.set(qn("w:fldCharType"), kind)
        run._r.append(el)

    fld("begin")
    run = paragraph.add_run()
    text = OxmlElement("w:instrText")
    text.set(qn("xml:space"), "preserve")
    text.text = f" {instr} "
    run._r.append(text)
    fld("separate")
    paragraph.add_run("1")
    fld("end")


def bar_chart_png(bars, width=480, height=200):
    """A bar chart without any text: grey bars on white, a black base line."""
    n = len(bars)
    slot = width // n
    rows = []
    for y in range(height):
        row = bytearray(b"\x00")
        for x in range(width):
            i = min(n - 1, x // slot)
            top = height - 10 - int((height - 20) * bars[i] / 100)
            in_bar = slot * i + 6 <= x < slot * (i + 1) - 6 and top <= y < height - 10
            if y == height - 10:
                row += b"\x00\x00\x00"
            elif in_bar:
                shade = 90 + 30 * (i % 3)
                row += bytes((shade, shade, shade + 40))
            else:
                row += b"\xff\xff\xff"
        rows.append(bytes(row))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")


def set_cols(section, num):
    sect = section._sectPr
    cols = sect.find(qn("w:cols"))
    if cols is None:
        cols = OxmlElement("w:cols")
        grid = sect.find(qn("w:docGrid"))
        if grid is not None:
            grid.addprevious(cols)
        else:
            sect.append(cols)
    cols.set(qn("w:num"), str(num))
    cols.set(qn("w:space"), "432")


def render(model, out):
    st = model["style"]
    rtl = model["rtl"]
    doc = Document()
    sec = doc.sections[0]
    if st["pageSize"] == "letter":
        sec.page_width, sec.page_height = Inches(8.5), Inches(11)
    else:
        sec.page_width, sec.page_height = Inches(8.27), Inches(11.69)
    m = st["margins"]
    sec.top_margin, sec.bottom_margin = Inches(m["top"]), Inches(m["bottom"])
    sec.left_margin, sec.right_margin = Inches(m["left"]), Inches(m["right"])
    sec.header_distance = sec.footer_distance = Inches(min(m["top"], m["bottom"]) / 2)

    normal = doc.styles["Normal"]
    style_font(normal, st["bodyFont"], st["bodySize"])
    normal.paragraph_format.line_spacing = st["lineSpacing"]
    normal.paragraph_format.space_after = Pt(st["spaceAfter"])
    for level in (1, 2, 3):
        h = doc.styles[f"Heading {level}"]
        style_font(h, st["headingFont"], st["headingSizes"][level - 1], bold=st["headingBold"], color=st["headingColor"], italic=False)
        h.paragraph_format.space_before = Pt(max(6, st["headingSizes"][level - 1]))
        h.paragraph_format.space_after = Pt(4)
    style_font(doc.styles["Title"], st["headingFont"], st["titleSize"], bold=st["headingBold"], color=st["headingColor"])
    style_font(doc.styles["Caption"], st["bodyFont"], max(8, st["bodySize"] - 1), bold=False, italic=True, color="333333")
    for name in ("List Bullet", "List Bullet 2", "List Bullet 3", "List Number", "List Number 2", "List Number 3"):
        doc.styles[name].paragraph_format.space_after = Pt(min(3, st["spaceAfter"]))

    align = WD_ALIGN_PARAGRAPH.JUSTIFY if st["justify"] else (WD_ALIGN_PARAGRAPH.RIGHT if rtl else None)
    column_width = (sec.page_width - sec.left_margin - sec.right_margin) / (2 if model["twoColumn"] else 1)

    def para(style=None):
        p = doc.add_paragraph(style=style)
        if rtl:
            bidi(p)
        return p

    two_column_started = False
    for block in model["blocks"]:
        kind = block["type"]
        if model["twoColumn"] and not two_column_started and kind == "heading":
            new = doc.add_section(WD_SECTION.CONTINUOUS)
            set_cols(new, 2)
            two_column_started = True
        if kind == "title":
            p = para("Title")
            p.add_run(block["text"])
        elif kind == "heading":
            p = para(f"Heading {block['level']}")
            p.add_run(block["text"])
        elif kind == "paragraph":
            p = para()
            for r in block["runs"]:
                run = p.add_run(r["text"])
                run.bold = r.get("bold") or None
                run.italic = r.get("italic") or None
                if r.get("rtl"):
                    rtl_run(run)
            if r.get("rtl") and not rtl:
                bidi(p)
            if align is not None:
                p.alignment = align
            if st["firstLineIndent"]:
                p.paragraph_format.first_line_indent = Inches(st["firstLineIndent"])
        elif kind == "caption":
            p = para("Caption")
            p.add_run(block["text"])
        elif kind == "list":
            base = "List Number" if block["ordered"] else "List Bullet"
            for item in block["items"]:
                name = base if item["level"] == 0 else f"{base} {item['level'] + 1}"
                p = para(name)
                run = p.add_run(item["text"])
                if rtl:
                    rtl_run(run)
        elif kind == "table":
            rows = block["rows"]
            t = doc.add_table(rows=len(rows), cols=len(rows[0]))
            t.style = doc.styles["Table Grid"]
            if rtl:
                t._tbl.tblPr.append(OxmlElement("w:bidiVisual"))
            for i, row in enumerate(rows):
                for j, text in enumerate(row):
                    cell = t.cell(i, j)
                    p = cell.paragraphs[0]
                    if rtl:
                        bidi(p)
                    run = p.add_run(text)
                    if i == 0:
                        run.bold = True
                    if rtl:
                        rtl_run(run)
            # Space between the table and the text after it.
            doc.add_paragraph().paragraph_format.space_after = Pt(2)
        elif kind == "figure":
            p = para()
            p.alignment = WD_ALIGN_PARAGRAPH.CENTER
            p.add_run().add_picture(io.BytesIO(bar_chart_png(block["bars"])), width=min(Inches(4), int(column_width * 0.9)))

    if model["header"] is not None:
        for s in doc.sections:
            if s is not doc.sections[0]:
                s.header.is_linked_to_previous = True
                s.footer.is_linked_to_previous = True
        hdr = doc.sections[0].header.paragraphs[0]
        if rtl:
            bidi(hdr)
        hdr.add_run(model["header"])
        hdr.alignment = WD_ALIGN_PARAGRAPH.CENTER if rtl else WD_ALIGN_PARAGRAPH.RIGHT
        ftr = doc.sections[0].footer.paragraphs[0]
        if rtl:
            bidi(ftr)
        ftr.alignment = WD_ALIGN_PARAGRAPH.CENTER
        if model["footer"] == "number":
            add_field(ftr, "PAGE")
        elif model["footer"] == "page-of":
            ftr.add_run("Page ")
            add_field(ftr, "PAGE")
            ftr.add_run(" of ")
            add_field(ftr, "NUMPAGES")
        else:
            ftr.add_run(model["footerText"] + "   |   ")
            add_field(ftr, "PAGE")

    core = doc.core_properties
    title = next((b["text"] for b in model["blocks"] if b["type"] == "title"), model["name"])
    core.title = title
    core.author = "docex bench:structure"
    doc.save(out)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        jobs = json.load(f)
    for job in jobs:
        render(job["model"], job["out"])


if __name__ == "__main__":
    main()
