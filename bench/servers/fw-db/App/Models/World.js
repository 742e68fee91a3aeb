// App/Models/World.ts, compiled: TechEmpower's `world` rows, for route model binding (`GET /world/{world}`).
import { Model } from 'fw-runtime';
export class World extends Model('world', { timestamps: false }) {
}
