// A script that uses the imaging pool and then closes it, as a bench or CLI does: run by the pool's test, it must
// print "closed" and exit 0 (an await left unsettled when no handle keeps the process alive exits 13 instead).
import { PdfTextLayerReader } from '../../../shared/adapters/imaging/pdf-text-layer-reader';
import { ImagingPool } from '../../../shared/adapters/imaging/worker-pool';
import { textPdf } from '../text-pdf';

const pool = new ImagingPool({ size: 1 });
await new PdfTextLayerReader({ pool }).read(textPdf([['A page with a text layer, long enough to count as text.']]));
await pool.close();
console.log('closed');
