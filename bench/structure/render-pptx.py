"""Render bench:structure's presentation models (officemodel.ts) to PPTX with python-pptx.

    python render-pptx.py jobs.json

jobs.json: [{"model": DeckModel, "out": "/path/to/file.pptx"}, ...]. The
default template's layouts carry the structure: Title Slide (centred title,
subtitle), Title and Content and Two Content (content placeholders, bulleted
at every level), Section Header (body without bullets), Title Only, Blank.
Bullet levels are a:pPr lvl; a lead-in line has its bullet switched off
(a:buNone, no indent). Text boxes are plain text boxes (not placeholders),
tables graphic frames, notes the notes slide's body placeholder. Some content
placeholders are numbered (a:buAutoNum arabicPeriod); some paragraphs hold a
line break (a:br); some slides draw their text boxes inside a group shape.
"""

import json
import sys

from pptx import Presentation
from pptx.oxml.ns import qn
from pptx.util import Inches, Pt
from lxml import etree

LAYOUTS = {"title": 0, "content": 1, "section": 2, "two-content": 3, "title-only": 5, "blank": 6}


def no_bullet(paragraph):
    ppr = paragraph._p.get_or_add_pPr()
    ppr.set("marL", "0")
    ppr.set("indent", "0")
    etree.SubElement(ppr, qn("a:buNone"))


def numbered(paragraph):
    """Arabic numbers (1. 2. 3.) instead of the template's bullet."""
    ppr = paragraph._p.get_or_add_pPr()
    etree.SubElement(ppr, qn("a:buAutoNum")).set("type", "arabicPeriod")


def fill(frame, texts):
    """Paragraphs into a text frame: the first into its existing paragraph; a "\\n" is a line break (a:br)."""
    for i, text in enumerate(texts):
        p = frame.paragraphs[0] if i == 0 else frame.add_paragraph()
        p.text = text.replace("\n", "\v")
    return frame


def render(model, out):
    prs = Presentation()
    width, height = prs.slide_width, prs.slide_height
    for s in model["slides"]:
        slide = prs.slides.add_slide(prs.slide_layouts[LAYOUTS[s["layout"]]])
        ph = {p.placeholder_format.idx: p for p in slide.placeholders}
        if s["title"] is not None:
            slide.shapes.title.text = s["title"]
        if s["subtitle"] is not None:
            ph[1].text_frame.text = s["subtitle"]
        for k, body in enumerate(s["bodies"]):
            frame = ph[1 + k].text_frame
            for i, item in enumerate(body):
                p = frame.paragraphs[0] if i == 0 else frame.add_paragraph()
                p.text = item["text"].replace("\n", "\v")
                p.level = item["level"]
                if not item["bullet"]:
                    no_bullet(p)
                elif s["numbered"][k]:
                    numbered(p)
            frame.word_wrap = True
        # Placeholders the model leaves empty are removed, as PowerPoint shows none of their prompt text.
        for idx, p in ph.items():
            if idx != 0 and (not p.has_text_frame or p.text_frame.text == ""):
                p._element.getparent().remove(p._element)
        top = Inches(1.6) if s["title"] is not None else Inches(0.5)
        if s["table"] is not None:
            rows, cols = len(s["table"]), len(s["table"][0])
            h = Inches(0.4) * rows
            frame = slide.shapes.add_table(rows, cols, Inches(0.5), top, width - Inches(1), h)
            for i, row in enumerate(s["table"]):
                for j, text in enumerate(row):
                    c = frame.table.cell(i, j)
                    c.text = text
                    for para in c.text_frame.paragraphs:
                        for run in para.runs:
                            run.font.size = Pt(14)
            top = top + h + Inches(0.2)
        boxes = s["textBoxes"]
        if boxes:
            box_h = max(Inches(0.6), int((height - top - Inches(0.3)) / len(boxes)))
            shapes = slide.shapes.add_group_shape().shapes if s["grouped"] else slide.shapes
            for k, paras in enumerate(boxes):
                tb = shapes.add_textbox(Inches(0.6), top + box_h * k, width - Inches(1.2), box_h)
                tb.text_frame.word_wrap = True
                fill(tb.text_frame, paras)
                for para in tb.text_frame.paragraphs:
                    for run in para.runs:
                        run.font.size = Pt(14)
        if s["notes"]:
            fill(slide.notes_slide.notes_text_frame, s["notes"])
    prs.core_properties.title = model["title"]
    prs.core_properties.author = "docex bench:structure"
    prs.save(out)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        jobs = json.load(f)
    for job in jobs:
        render(job["model"], job["out"])


if __name__ == "__main__":
    main()
