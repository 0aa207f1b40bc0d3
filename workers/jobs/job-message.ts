// Queue messages carry only the job id; the job's input lives in D1 so messages stay small.
export interface JobMessage {
  job_id: string;
}
